import path from 'node:path';
import { expect, it } from 'vitest';
import { rejection, type ContractHarness } from './contractSuite';

/** Workspace trust over the contract (contractSuite.ts runs it on every transport; what-users-ask §14). */
export function workspaceContract(setup: () => ContractHarness) {
  it('trusts only the workspace it shows, announces it, and keeps per-workspace switches', async () => {
    const { client, transport, skillsDir } = setup();
    const shown = await client.invoke('workspace.status', {});
    expect(shown).toMatchObject({ trusted: false, trusted_by: null, disabled: [] });
    // A hostile page naming another folder, or sending a malformed request, trusts nothing.
    for (const folder of [skillsDir, path.dirname(shown.path), '/', `${shown.path}/..`])
      expect((await rejection(client.invoke('workspace.trust', { path: folder }))).code).toBe('forbidden');
    for (const bad of [{}, { path: 42 }, { path: shown.path, also: '/' }, { path: '' }])
      expect(await transport.request('workspace.trust', bad)).toMatchObject({
        ok: false,
        error: { code: 'invalid_params' },
      });
    expect((await client.invoke('workspace.trusted', {})).folders).toEqual([]);

    const announced = new Promise<unknown>((resolve) => {
      const off = client.on('workspace.changed', (payload) => {
        off();
        resolve(payload);
      });
    });
    try {
      const trusted = await client.invoke('workspace.trust', { path: shown.path });
      expect(trusted).toMatchObject({ path: shown.path, trusted: true, trusted_by: 'stored' });
      expect(await announced).toMatchObject({ trusted: true });
      expect((await client.invoke('workspace.trusted', {})).folders.map((f) => f.path)).toEqual([shown.path]);

      const off = await client.invoke('workspace.setSkillEnabled', { name: 'alpha', enabled: false });
      expect(off.disabled).toEqual(['alpha']);
      const alpha = (await client.invoke('skills.list', {})).skills.find((x) => x.name === 'alpha');
      expect(alpha).toMatchObject({ enabled: true, workspaceEnabled: false });
    } finally {
      await client.invoke('workspace.setSkillEnabled', { name: 'alpha', enabled: true });
      expect(await client.invoke('workspace.untrust', { path: shown.path })).toEqual({
        revoked: true,
        folders: [],
      });
    }
  });
}
