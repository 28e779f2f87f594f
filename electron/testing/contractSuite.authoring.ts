import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { rejection, type ContractHarness } from './contractSuite';

/**
 * What a skill's author and user reach for over the contract (contractSuite.ts runs it on every
 * transport): description tuning and dependency installs refuse what a hostile page could send.
 */
export function authoringContract(setup: () => ContractHarness) {
  it('tunes a description only with cases and a model, and writes one only over the version tuned', async () => {
    const { client, transport, skillsDir } = setup();
    const id = path.join(skillsDir, 'alpha');
    const skillMd = fs.readFileSync(path.join(id, 'SKILL.md'), 'utf8');
    const improve = client.invoke('evals.improve', { id });
    expect((await rejection(improve)).code).toBe('invalid_params');
    const rounds = await transport.request('evals.improve', { id, rounds: 50 });
    expect(rounds).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const stale = client.invoke('evals.applyDescription', {
      id,
      description: 'Does everything.',
      content_hash: '0'.repeat(64),
    });
    expect((await rejection(stale)).message).toMatch(/changed since/);
    expect(fs.readFileSync(path.join(id, 'SKILL.md'), 'utf8')).toBe(skillMd);
  });

  it('runs no install command a renderer makes up, only a skill’s own runnable hint', async () => {
    const { client, transport, skillsDir } = setup();
    const id = path.join(skillsDir, 'alpha');
    // alpha misses nothing: there is nothing to install, whatever the command.
    const nothing = client.invoke('skills.installDependency', { id, command: 'npm install -g x' });
    expect((await rejection(nothing)).code).toBe('invalid_params');
    const bad = await transport.request('skills.installDependency', { id, command: ['rm', '-rf', '/'] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const unknown = client.invoke('skills.installDependency', { id: '/nowhere', command: 'x' });
    expect((await rejection(unknown)).code).toBe('not_found');
  });
}
