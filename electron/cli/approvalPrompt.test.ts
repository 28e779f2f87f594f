import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// `skilldeck run` at a terminal asks before an approval: ask skill runs. readline puts the
// terminal in raw mode for the question, so Ctrl-C reached the prompt as a key, not as SIGINT:
// it was swallowed and the CLI sat there until the broker's 2-minute timeout; Ctrl-D (end of
// input) did the same. A terminal is needed, so python3's pty module plays the user.
const DRIVER = `
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
key = bytes.fromhex(sys.argv[1])
seen, sent, start = b'', False, time.time()
while time.time() - start < 30:
    if not select.select([fd], [], [], 0.2)[0]:
        if os.waitpid(pid, os.WNOHANG)[0]: break
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk: break
    seen += chunk
    if not sent and b'Allow?' in seen:
        time.sleep(0.2)
        os.write(fd, key)
        sent, start = True, time.time()
# The terminal closes a moment before the process is gone.
for _ in range(50):
    done, status = os.waitpid(pid, os.WNOHANG)
    if done: break
    time.sleep(0.1)
if not done:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
sys.stdout.write(seen.decode('utf-8', 'replace'))
sys.stderr.write('EXIT %d' % (os.waitstatus_to_exitcode(status) if done else -1))
`;

const root = tempDir('skilldeck-cli-approval-prompt-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
let runs = 0;

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(skills, {
    'touch-note/SKILL.md': '---\nname: touch-note\ndescription: Writes a note.\n---\nRun scripts/note.sh.\n',
    'touch-note/skill.yaml': 'entrypoints: [scripts/note.sh]\nexecution_policy: { approval: ask }\n',
    'touch-note/scripts/note.sh': 'echo wrote the note\n',
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** `run touch-note --json` at a terminal; `keys` are typed once the question shows. */
function atTerminal(keys: string): Promise<{ code: number; screen: string; ms: number }> {
  const home = path.join(root, `home-${++runs}`);
  const args = ['run', 'touch-note', 'note it', '--json', '--no-default-paths', '--skills', skills];
  const started = Date.now();
  const child = spawn(
    'python3',
    ['-c', DRIVER, Buffer.from(keys).toString('hex'), process.execPath, cli, ...args],
    {
      env: { ...envWithoutModel(), SKILLDECK_HOME: home, HOME: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let screen = '';
  let status = '';
  child.stdout.on('data', (d: Buffer) => (screen += d));
  child.stderr.on('data', (d: Buffer) => (status += d));
  return new Promise((resolve) =>
    child.on('close', () =>
      resolve({ code: Number(/EXIT (-?\d+)/.exec(status)?.[1] ?? -2), screen, ms: Date.now() - started }),
    ),
  );
}

/** The run document among what the terminal showed (the question is on the same screen). */
function runOf(screen: string): RunResult {
  const line = screen.split(/\r?\n/).find((l) => l.startsWith('{"run_id"'));
  if (!line) throw new Error(`no run JSON on the terminal:\n${screen}`);
  return RunResult.parse(JSON.parse(line));
}

describe('the approval question at a terminal', () => {
  it('Ctrl-C stops the command at once, exit 130, and the run did not run', async () => {
    const { code, screen, ms } = await atTerminal('\x03');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(25_000);
    const run = runOf(screen);
    expect(['cancelled', 'denied']).toContain(run.status);
    expect(run.output).not.toContain('wrote the note');
  }, 60_000);

  it('Ctrl-D (end of input) is a no: denied, exit 1', async () => {
    const { code, screen, ms } = await atTerminal('\x04');
    expect(code).toBe(1);
    expect(ms).toBeLessThan(25_000);
    const run = runOf(screen);
    expect(run.status).toBe('denied');
    expect(run.output).not.toContain('wrote the note');
  }, 60_000);

  it('y allows it once: the run succeeds, exit 0', async () => {
    const { code, screen } = await atTerminal('y\r');
    expect(code).toBe(0);
    expect(runOf(screen).status).toBe('success');
    expect(runOf(screen).output).toContain('wrote the note');
  }, 60_000);
});
