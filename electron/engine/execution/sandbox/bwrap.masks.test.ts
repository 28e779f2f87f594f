import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectBackend } from './index';

// issue 7: writable only the grants and the run folder — the masked home and /tmp are
// read-only inside, so a write there fails and is named instead of vanishing with a tmpfs.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-masks-'));
// A fake home outside /tmp (which is masked as a whole), as a real one would be.
const homeRoot = fs.mkdtempSync(path.join(__dirname, '../../../../node_modules/.cache-masks-'));
const home = path.join(homeRoot, 'home');
const cwd = path.join(root, 'work');
const skillDir = path.join(root, 'skill');
for (const d of [home, cwd, skillDir]) fs.mkdirSync(d, { recursive: true });
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(homeRoot, { recursive: true, force: true });
});

const run = (script: string) =>
  selectBackend('os', { home }).backend.run({
    command: '/bin/bash',
    args: ['-c', script],
    cwd,
    skillDir,
    grants: {
      read: [],
      write: [],
      network: false,
      env: { PATH: '/usr/bin:/bin', HOME: home, TMPDIR: cwd },
      declared: { read: [], write: ['./out/**'] },
    },
    timeoutMs: 10_000,
    maxOutputBytes: 64 * 1024,
  });

describe('masked folders are read-only inside bwrap', () => {
  it.each([
    ['the home', `${home}/.bashrc-evil`],
    ['/tmp', '/tmp/skilldeck-evil'],
  ])('a write to %s fails with an exact violation and leaves nothing on the host', async (_where, target) => {
    const r = await run(`echo x > ${target}`);
    expect(r.tier).toBe('bwrap');
    expect(r.exitCode).not.toBe(0);
    expect(r.violations).toContainEqual(
      expect.objectContaining({
        kind: 'write',
        message: expect.stringMatching(/^tried to write .*, outside its write paths \.\/out\/\*\*$/),
      }),
    );
    expect(fs.existsSync(target)).toBe(false);
  });

  it('the run folder and TMPDIR inside it stay writable', async () => {
    const r = await run('echo ok > "$TMPDIR/t" && cat "$TMPDIR/t" && mkdir -p out && echo y > out/f');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ok\n', violations: [] });
    expect(fs.readFileSync(path.join(cwd, 'out', 'f'), 'utf8')).toBe('y\n');
  });
});

// A grant of a folder that holds hidden things must not show them again (found by an audit:
// a read grant of `~` showed $SKILLDECK_HOME and the other skills; a write grant of `~/**` came
// back read-only; a read grant of a folder kept the app.sock in it connectable).
describe('grants over hidden things', () => {
  const data = path.join(home, '.skilldeck');
  const others = path.join(home, '.claude', 'skills');
  const project = path.join(home, 'project');
  const sock = path.join(project, 'app.sock');
  fs.mkdirSync(path.join(data, 'runs'), { recursive: true });
  fs.mkdirSync(others, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(data, 'secrets.json'), '{"key":"SECRET-DATA"}');
  fs.writeFileSync(path.join(others, 'token.txt'), 'OTHER-SKILL-TOKEN');
  fs.writeFileSync(path.join(home, 'notes.txt'), 'my notes');

  const granted = (script: string, grants: { read?: string[]; write?: string[] }) =>
    selectBackend('os', { home, hide: [data, others] }).backend.run({
      command: '/bin/bash',
      args: ['-c', script],
      cwd,
      skillDir,
      grants: {
        read: grants.read ?? [],
        write: grants.write ?? [],
        network: false,
        env: { PATH: '/usr/bin:/bin', HOME: home },
        declared: { read: grants.read ?? [], write: grants.write ?? [] },
      },
      timeoutMs: 10_000,
      maxOutputBytes: 64 * 1024,
    });

  it('a read grant of the home shows the home, not SkillDeck’s data or the other skills', async () => {
    const r = await granted(
      `cat ${home}/notes.txt; echo; cat ${data}/secrets.json; cat ${others}/token.txt; ls -A ${data}; true`,
      { read: [home] },
    );
    expect(r.stdout).toContain('my notes');
    expect(r.stdout).not.toContain('SECRET-DATA');
    expect(r.stdout).not.toContain('OTHER-SKILL-TOKEN');
    // The run folder and the skill folder are still there.
    const own = await granted('echo ok > here.txt && cat here.txt', { read: [home] });
    expect(own).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
  });

  it('a write grant of the home itself is writable, and its hidden folders stay hidden', async () => {
    const target = path.join(home, 'written-by-skill.txt');
    const r = await granted(`echo hi > ${target} && cat ${others}/token.txt; true`, { write: [home] });
    expect(fs.readFileSync(target, 'utf8')).toBe('hi\n');
    expect(r.stdout).not.toContain('OTHER-SKILL-TOKEN');
    fs.rmSync(target);
    const blocked = await granted(`echo x > ${data}/secrets.json`, { write: [home] });
    expect(blocked.exitCode).not.toBe(0);
    expect(fs.readFileSync(path.join(data, 'secrets.json'), 'utf8')).toBe('{"key":"SECRET-DATA"}');
  });

  it('a read grant of a folder does not make the unix socket listening in it connectable', async () => {
    const net = await import('node:net');
    const server = net.createServer((c) => c.end('HOST-SERVICE-REACHED\n'));
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const script = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${sock}'); print(s.recv(100).decode())"`;
      const r = await granted(script, { read: [project] });
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).not.toContain('HOST-SERVICE-REACHED');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
