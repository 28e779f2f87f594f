import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { DEFAULT_LIMITS } from './limits';
import { createProcessBackend, PROCESS_UNENFORCED } from './process';
import { processesWith, waitFor } from './testing/harness';
import type { SandboxSpec } from './types';

// The process-only fallback (DESIGN §4): own process group killed as a whole, env exactly
// the allow-list, output cap, scratch cwd; files and network are not enforced and it says so.
describe('process backend', () => {
  let root: string;
  const marker = `${5000 + Math.floor(Math.random() * 1000)}.${Date.now() % 1e6}`;
  const spec = (command: string, args: string[], over: Partial<SandboxSpec> = {}): SandboxSpec => ({
    command,
    args,
    cwd: path.join(root, 'run'),
    skillDir: root,
    grants: {
      read: [],
      write: [],
      network: false,
      env: { PATH: '/usr/bin:/bin', ALLOWED: 'yes' },
      declared: { read: [], write: [] },
    },
    timeoutMs: 10_000,
    maxOutputBytes: 64 * 1024,
    ...over,
  });

  beforeAll(() => {
    root = tempDir('skilldeck-proc-');
    process.env.PROCESS_TEST_SECRET = 'do-not-leak';
  });
  afterAll(() => {
    delete process.env.PROCESS_TEST_SECRET;
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('labels its tier and lists in plain words what it cannot enforce', () => {
    expect(createProcessBackend().tier).toBe('process');
    expect(createProcessBackend({ tier: 'none' }).tier).toBe('none');
    expect(createProcessBackend().unenforced).toEqual(PROCESS_UNENFORCED);
    expect(PROCESS_UNENFORCED.join(' ')).toMatch(/file read and write permissions are not enforced/);
    // A script of the same user reads /proc/<pid>/environ of the app that started it.
    expect(PROCESS_UNENFORCED.join(' ')).toMatch(/the API keys in its environment included/);
    expect(PROCESS_UNENFORCED.join(' ')).toMatch(/network rules are not enforced/);
    // leftovers.ts finds a run's leftovers by its folder and TMPDIR: `cd / && env -i setsid cmd &`
    // sheds both, and a probe's such process outlived a run reported as done.
    expect(PROCESS_UNENFORCED.join(' ')).toMatch(
      /a program it starts in a session of its own, outside its folder and with a cleared environment, can outlive the run/,
    );
  });

  it.for([
    ['bash', '/bin/bash', ['-c', `sleep ${marker}1 & sleep 60`]],
    [
      'python',
      '/usr/bin/python3',
      ['-c', `import subprocess, time; subprocess.Popen(["sleep", "${marker}2"]); time.sleep(60)`],
    ],
    [
      'node',
      process.execPath,
      ['-e', `require('child_process').spawn('sleep', ['${marker}3']); setTimeout(() => {}, 60000)`],
    ],
  ] as const)('%s: a timeout kills the whole process tree', async ([, command, args]) => {
    const digit = command.endsWith('bash') ? '1' : command.includes('python') ? '2' : '3';
    const running = createProcessBackend().run(spec(command, [...args], { timeoutMs: 1500 }));
    await new Promise((done) => setTimeout(done, 1000));
    expect(processesWith(`${marker}${digit}`).length).toBeGreaterThan(0);
    const r = await running;
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    // SIGKILL is sent to the whole group at once; reaping an orphan can lag a little under load.
    await waitFor(() => processesWith(`${marker}${digit}`).length === 0);
    expect(processesWith(`${marker}${digit}`)).toEqual([]);
  });

  it('does not hang when a grandchild leaves the group holding the pipes, nor leave it running', async () => {
    const started = Date.now();
    const r = await createProcessBackend().run(
      spec('/bin/sh', ['-c', `setsid sleep ${marker}9 & sleep 0.3; echo parent done`]),
    );
    expect(r.stdout).toBe('parent done\n');
    expect(Date.now() - started).toBeLessThan(3000);
    const escaped = processesWith(`${marker}9`);
    for (const pid of escaped) process.kill(pid, 'SIGKILL');
    expect(escaped).toEqual([]);
  });

  it("a daemon (double fork, setsid, cd /) that keeps the run's TMPDIR does not outlive the run", async () => {
    const tmpdir = path.join(root, 'run', '.tmp');
    const grants = { ...spec('', []).grants, env: { PATH: '/usr/bin:/bin', TMPDIR: tmpdir } };
    const daemon = `(cd / && setsid sh -c 'sleep ${marker}8' </dev/null >/dev/null 2>&1 &) ; sleep 0.3; echo forked`;
    const r = await createProcessBackend().run(spec('/bin/sh', ['-c', daemon], { grants }));
    expect(r.stdout).toBe('forked\n');
    const escaped = processesWith(`${marker}8`);
    for (const pid of escaped) process.kill(pid, 'SIGKILL');
    expect(escaped).toEqual([]);
  });

  it('passes exactly the allow-listed environment, never loader hooks, and names a missed variable', async () => {
    const env = {
      PATH: '/usr/bin:/bin',
      ALLOWED: 'yes',
      LD_PRELOAD: '/nonexistent.so',
      NODE_OPTIONS: '-r /nonexistent',
    };
    const grants = { ...spec('', []).grants, env };
    const printed = await createProcessBackend().run(spec('/usr/bin/env', [], { grants }));
    expect(printed.stdout.trim().split('\n').sort()).toEqual(['ALLOWED=yes', 'PATH=/usr/bin:/bin']);
    expect(printed.stderr).not.toMatch(/ld\.so/);
    // A script file, as skills have: Python prints its source line (`os.environ[…]`) only for files.
    const script = path.join(root, 'secret.py');
    fs.writeFileSync(script, 'import os\nprint(os.environ["PROCESS_TEST_SECRET"])\n');
    const r = await createProcessBackend().run(spec('/usr/bin/python3', [script], { grants }));
    expect(r.violations).toEqual([
      {
        kind: 'env',
        target: 'PROCESS_TEST_SECRET',
        message:
          'tried to read the environment variable PROCESS_TEST_SECRET, which is not in its environment allow-list',
      },
    ]);
  });

  it('cuts a flood at the output cap, starts in the scratch dir, and stops on cancel', async () => {
    const flood = await createProcessBackend().run(spec('/usr/bin/yes', []));
    expect(flood.truncated).toBe(true);
    expect(flood.stdout.length).toBe(64 * 1024);
    expect(flood.violations.map((v) => v.kind)).toEqual(['output']);

    const pwd = await createProcessBackend().run(spec('/bin/pwd', []));
    expect(pwd.stdout.trim()).toBe(path.join(root, 'run'));

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const cancelled = await createProcessBackend().run(
      spec('/bin/sleep', ['30'], { signal: controller.signal }),
    );
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.durationMs).toBeLessThan(5000);
  });

  it('streams output whole: a character split across pipe chunks arrives intact', async () => {
    const chunks: string[] = [];
    const r = await createProcessBackend().run(
      spec(process.execPath, ['-e', "process.stdout.write('é'.repeat(150000))"], {
        maxOutputBytes: 1024 * 1024,
        onOutput: (_stream, chunk) => chunks.push(chunk),
      }),
    );
    expect(r.stdout).toBe('é'.repeat(150000));
    expect(chunks.join('')).toBe(r.stdout);
  });

  it('reports a program that cannot start as a setup error', async () => {
    const r = await createProcessBackend().run(spec('/nonexistent/tool', []));
    expect(r.setupError).toMatch(/could not start \/nonexistent\/tool/);
    expect(r.exitCode).toBeNull();
  });
  it('stops a fork loop at the process limit — as root by counting its process group', async () => {
    // RLIMIT_NPROC holds a user; the kernel never applies it to root, so for root the engine
    // counts the run's process group (it had run to the timeout).
    const started = performance.now();
    const r = await createProcessBackend().run(
      spec(
        '/usr/bin/python3',
        [
          '-c',
          [
            'import subprocess, time',
            'kids = []',
            'for _ in range(200):',
            '    kids.append(subprocess.Popen(["sleep", "30"]))',
            'print("started", len(kids))',
            'time.sleep(30)',
          ].join('\n'),
        ],
        { timeoutMs: 40_000, limits: { ...DEFAULT_LIMITS, processes: 30 } },
      ),
    );
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(r.timedOut).toBe(false);
    expect(r.stdout).not.toContain('started 200');
    expect(r.violations).toContainEqual({
      kind: 'exec',
      target: '30 processes',
      message: 'tried to start more than 30 processes, its process limit',
    });
  }, 60_000);
});
