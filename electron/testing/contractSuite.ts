import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../shared/api';
import { RpcFailure } from '../../shared/rpc';
import type { Transport } from '../../shared/rpc';
import { skillMd, writeTree } from './fixtures';

export interface ContractHarness {
  client: Client;
  /** Raw transport, to send what a typed client cannot (unknown methods, bad params). */
  transport: Transport;
  /** The `--skills` folder the engine searches. */
  skillsDir: string;
}

export const seedContractSkills = (skillsDir: string) =>
  writeTree(skillsDir, {
    'alpha/SKILL.md': skillMd('alpha', 'Alpha skill for the contract suite.'),
    'alpha/scripts/run.py': 'print("hi")\n',
    'beta/SKILL.md': '---\nname: beta\n---\nno description here\n',
  });

async function rejection(promise: Promise<unknown>): Promise<RpcFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RpcFailure) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** The same contract suite, run over every transport (STYLE: "the same contract suite runs over both"). */
export function contractSuite(name: string, setup: () => ContractHarness) {
  describe(`contract over ${name}`, () => {
    it('answers app.info and skills.list with schema-valid results', async () => {
      const { client, skillsDir } = setup();
      const info = await client.invoke('app.info', {});
      expect(info.name).toBe('SkillDeck');
      const list = await client.invoke('skills.list', {});
      const names = list.skills.map((skill) => skill.name).sort();
      expect(names).toEqual(['alpha', 'beta']);
      expect(list.folders.some((folder) => folder.path === skillsDir && folder.exists)).toBe(true);
      const beta = list.skills.find((skill) => skill.name === 'beta')!;
      expect(beta.routable).toBe(false);
      expect(beta.problems.some((problem) => problem.severity === 'error')).toBe(true);
    });

    it('returns detail, files and validation for a known skill', async () => {
      const { client, skillsDir } = setup();
      const id = path.join(skillsDir, 'alpha');
      const detail = await client.invoke('skills.get', { id });
      expect(detail.body).toContain('Do the thing.');
      expect(detail.files.map((file) => file.path)).toContain('scripts/run.py');
      expect(detail.contentHash).toMatch(/^[0-9a-f]{64}$/);
      const file = await client.invoke('skills.readFile', { id, path: 'scripts/run.py' });
      expect(file.content).toBe('print("hi")\n');
      const report = await client.invoke('skills.validate', { id });
      expect(report.valid).toBe(true);
    });

    it('refuses an unknown method with a structured error and keeps serving', async () => {
      const { client, transport } = setup();
      const response = await transport.request('skills.delete_everything', {});
      expect(response).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
      const proto = await transport.request('__proto__', {});
      expect(proto).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
      expect((await client.invoke('skills.list', {})).skills.length).toBe(2);
    });

    it('refuses bad params with field-level issues', async () => {
      const { transport } = setup();
      const missing = await transport.request('skills.get', {});
      expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
      if (!missing.ok) expect(missing.error.issues?.[0].path).toBe('id');
      const extra = await transport.request('skills.list', { evil: true });
      expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
      const wrongType = await transport.request('skills.readFile', { id: 42, path: ['x'] });
      expect(wrongType).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
      const notObject = await transport.request('skills.get', 'alpha');
      expect(notObject).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    });

    it('answers not_found for an unknown skill and forbidden for a path escape', async () => {
      const { client, skillsDir } = setup();
      expect((await rejection(client.invoke('skills.get', { id: '/etc' }))).code).toBe('not_found');
      const id = path.join(skillsDir, 'alpha');
      const escape = await rejection(client.invoke('skills.readFile', { id, path: '../beta/SKILL.md' }));
      expect(escape.code).toBe('forbidden');
      const absolute = await rejection(client.invoke('skills.readFile', { id, path: '/etc/passwd' }));
      expect(absolute.code).toBe('forbidden');
    });

    it('updates settings, announces them, and refuses out-of-range values', async () => {
      const { client, transport } = setup();
      const announced = new Promise<unknown>((resolve) => {
        const off = client.on('settings.changed', (payload) => {
          off();
          resolve(payload);
        });
      });
      const before = await client.invoke('settings.get', {});
      const updated = await client.invoke('settings.update', { routing: { threshold: 0.7 } });
      expect(updated.routing.threshold).toBe(0.7);
      expect(updated.routing.weights).toEqual(before.routing.weights);
      expect(await announced).toMatchObject({ routing: { threshold: 0.7 } });
      const bad = await transport.request('settings.update', { routing: { threshold: 7 } });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
      expect((await client.invoke('settings.get', {})).routing.threshold).toBe(0.7);
      await client.invoke('settings.update', { routing: { threshold: before.routing.threshold } });
    });

    it('pushes skills.changed after a reload finds a new skill', async () => {
      const { client, skillsDir } = setup();
      const changed = new Promise<unknown>((resolve) => {
        const off = client.on('skills.changed', (payload) => {
          off();
          resolve(payload);
        });
      });
      writeTree(skillsDir, { 'gamma/SKILL.md': skillMd('gamma', 'Gamma arrives later.') });
      try {
        const list = await client.invoke('skills.reload', {});
        expect(list.skills.map((skill) => skill.name)).toContain('gamma');
        expect(await changed).toMatchObject({ added: [path.join(skillsDir, 'gamma')] });
      } finally {
        fs.rmSync(path.join(skillsDir, 'gamma'), { recursive: true, force: true });
        await client.invoke('skills.reload', {});
      }
    });
  });
}
