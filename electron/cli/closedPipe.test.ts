import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// `skilldeck run x | head -2`, `skilldeck skills list | head`: the reader goes away while the CLI
// still writes. Node does not die of SIGPIPE as other tools do; the write fails with EPIPE, which
// nothing handled: the CLI crashed with "Unhandled 'error' event" and a stack trace on stderr, in
// the middle of a run (whose sandbox then died with it, its record left "running").
const root = tempDir('skilldeck-cli-closed-pipe-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
let homes = 0;

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(skills, {
    'counter/SKILL.md': '---\nname: counter\ndescription: Counts to a large number.\n---\nRun it.\n',
    'counter/skill.yaml': 'entrypoints: [scripts/count.sh]\nexecution_policy: { approval: auto }\n',
    // Slow enough that the reader is gone long before it ends.
    'counter/scripts/count.sh': 'for i in $(seq 1 400); do echo "line $i"; sleep 0.02; done\n',
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The CLI with stdout into a pipe that is closed after the first `keep` bytes, as `| head -c` does. */
function intoHead(
  args: string[],
  keep: number,
): Promise<{ code: number | null; stderr: string; home: string }> {
  const home = path.join(root, `home-${++homes}`);
  const child = spawn(process.execPath, [cli, ...args, '--no-default-paths', '--skills', skills], {
    env: { ...envWithoutModel(), SKILLDECK_HOME: home, HOME: root },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let seen = 0;
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    seen += d.length;
    if (seen >= keep) child.stdout.destroy();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, home })));
}

describe('a reader that goes away (| head)', () => {
  it('run: stops the run as SIGPIPE would, exit 141, no stack trace, the record finished', async () => {
    const { code, stderr, home } = await intoHead(['run', 'counter', 'count'], 10);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|node:events/);
    expect(code).toBe(141);
    const records = fs
      .readdirSync(path.join(home, 'runs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.json'))
      .map((f) => fs.readFileSync(path.join(home, 'runs', f), 'utf8'));
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r).not.toContain('"status":"running"');
  }, 60_000);

  it('skills list --json: no stack trace, exit 141', async () => {
    const big = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        `many/s${i}/SKILL.md`,
        `---\nname: s${i}\ndescription: Skill number ${i} ${'x'.repeat(400)}\n---\nBody.\n`,
      ]),
    );
    writeTree(skills, big);
    const { code, stderr } = await intoHead(['skills', 'list', '--json'], 10);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|node:events/);
    expect(code).toBe(141);
  }, 60_000);

  // Closing the terminal window or losing the ssh connection sends SIGHUP, which ended the CLI
  // at once (Node's default): no JSON, and the run's record said "running" for good.
  it('run: SIGHUP (the terminal closed) stops the run as Ctrl-C does, exit 129, with its JSON', async () => {
    const home = path.join(root, `home-${++homes}`);
    const child = spawn(
      process.execPath,
      [cli, 'run', 'counter', 'count', '--json', '--no-default-paths', '--skills', skills],
      {
        env: { ...envWithoutModel(), SKILLDECK_HOME: home, HOME: root },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const records = () =>
      fs.existsSync(path.join(home, 'runs'))
        ? fs
            .readdirSync(path.join(home, 'runs'), { recursive: true, encoding: 'utf8' })
            .filter((f) => f.endsWith('.json'))
            .map((f) => fs.readFileSync(path.join(home, 'runs', f), 'utf8'))
        : [];
    for (const started = Date.now(); !records().some((r) => r.includes('"running"')); await sleep(50))
      if (Date.now() - started > 30_000) throw new Error('the run did not start');
    child.kill('SIGHUP');
    expect(await closed).toBe(129);
    expect(RunResult.parse(JSON.parse(stdout)).status).toBe('cancelled');
    for (const r of records()) expect(r).not.toContain('"status":"running"');
  }, 60_000);
});
