import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { ensureProbeUser, PROBE_USER } from '../engine/execution/sandbox/testing/harness';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// A script that takes the write permission away from folders of its run (its TMPDIR, a folder
// of ./out): the engine, as the same ordinary user, must still clean up after it. Root ignores
// the modes, so this runs the real CLI as a throwaway user.
const root = tempDir('skilldeck-locked-');
const asRoot = process.getuid?.() === 0;
const env = (home: string) => [
  `HOME=${path.join(root, 'home')}`,
  `SKILLDECK_HOME=${home}`,
  ...Object.entries(envWithoutModel())
    .filter(([k]) => k === 'PATH' || k === 'LANG')
    .map(([k, v]) => `${k}=${v}`),
];
const asProbe = (args: string[], home: string) =>
  execa('runuser', ['-u', PROBE_USER, '--', '/usr/bin/env', ...env(home), ...args], {
    reject: false,
    timeout: 60_000,
  });

beforeAll(async () => {
  if (!asRoot) return;
  await ensureProbeUser();
  fs.chmodSync(root, 0o755);
  await buildCliBundle(path.join(root, 'cli.cjs'));
  // RunStore.prune, bundled on its own, for the part no single run reaches (200 runs kept).
  await build({
    stdin: {
      contents: `import { RunStore } from './runStore';\nnew RunStore(process.argv[2]).prune(0);\n`,
      resolveDir: path.resolve(__dirname, '../engine/execution'),
      loader: 'ts',
    },
    outfile: path.join(root, 'prune.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
  });
  writeTree(path.join(root, 'skills', 'locker'), {
    'SKILL.md': '---\nname: locker\ndescription: Locks the folders of its run.\n---\n# locker\n',
    'skill.yaml': 'spec: { type: script }\nexecution_policy: { approval: auto }\n',
    'scripts/run.sh':
      '#!/bin/bash\nmkdir -p "$TMPDIR/locked" "$OUTPUT_DIR/locked"\necho x > "$TMPDIR/locked/f"\necho y > "$OUTPUT_DIR/locked/f"\nchmod 500 "$TMPDIR/locked" "$OUTPUT_DIR/locked"\nchmod 000 "$TMPDIR"\necho ok\n',
  });
  fs.mkdirSync(path.join(root, 'home'));
  await execa('chown', ['-R', `${PROBE_USER}:`, root]);
}, 120_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a run whose script locked folders of its run, as an ordinary user', () => {
  it('reports what the script did and removes its TMPDIR', async (ctx) => {
    if (!asRoot) return ctx.skip('needs root to run the CLI as a throwaway user');
    const home = path.join(root, 'sd-run');
    const cli = [process.execPath, path.join(root, 'cli.cjs')];
    const args = ['run', 'locker', 'go', '--skills', path.join(root, 'skills'), '--no-default-paths'];
    const r = await asProbe([...cli, ...args, '--approve', '--json'], home);
    const run = RunResult.parse(JSON.parse(r.stdout));
    expect(run).toMatchObject({ status: 'success', output: 'ok\n', error: null, sandbox: 'bwrap' });
    expect(fs.existsSync(path.join(run.cwd!, '.tmp'))).toBe(false);
    expect(run.files.map((f) => f.path)).toEqual(['out/locked/f']);
  });

  it('removes such runs when it prunes old ones, so later runs still start', async (ctx) => {
    if (!asRoot) return ctx.skip('needs root to run the CLI as a throwaway user');
    const runs = path.join(root, 'sd-prune', 'runs');
    writeTree(path.join(runs, 'old-run'), { 'record.json': '{}', 'work/out/locked/f': 'y' });
    await execa('chown', ['-R', `${PROBE_USER}:`, path.join(root, 'sd-prune')]);
    fs.chmodSync(path.join(runs, 'old-run', 'work/out/locked'), 0o500);
    const r = await asProbe(
      [process.execPath, path.join(root, 'prune.cjs'), runs],
      path.join(root, 'sd-prune'),
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(fs.readdirSync(runs)).toEqual([]);
  });
});
