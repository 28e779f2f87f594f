import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../testing/fixtures';
import { createBwrapBackend } from './bwrap';
import { bwrapOptions, sandboxEnv } from './bwrapArgs';
import { planLayout } from './layout';
import { probeSandbox } from './probe';
import { execa } from 'execa';
import { buildDriver, openFixture, processesWith, waitFor } from './testing/harness';
import { sleepArg } from './testing/probes';
import type { SandboxGrants, SandboxSpec } from './types';
import { OWN_FOLDER } from './violations';

// The bwrap flags that matter (reference/sandbox-linux.md), checked by what they stop.
describe('bwrap hardening', () => {
  let root: string;
  let home: string;
  let skillDir: string;
  const backend = () => createBwrapBackend({ home });
  const grants = (over: Partial<SandboxGrants> = {}): SandboxGrants => ({
    read: [],
    write: [],
    network: false,
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: home },
    declared: { read: [], write: [] },
    ...over,
  });
  const sh = (script: string, over: Partial<SandboxSpec> = {}): SandboxSpec => ({
    command: '/bin/sh',
    args: ['-c', script],
    cwd: path.join(root, 'run'),
    skillDir,
    grants: grants(),
    timeoutMs: 10_000,
    maxOutputBytes: 64 * 1024,
    ...over,
  });

  beforeAll(() => {
    root = tempDir('skilldeck-harden-');
    home = path.join(root, 'home');
    skillDir = path.join(root, 'skill');
    fs.mkdirSync(home);
    fs.mkdirSync(skillDir);
    fs.writeFileSync(path.join(skillDir, 'SKILL.md'), 'original\n');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('the probe finds bwrap with the flags every run uses', () => {
    const probe = probeSandbox();
    expect(probe.tier).toBe('bwrap');
    expect(probe.disableUserns).toBe(true);
    expect(probe.reason).toBeNull();
  });

  it('passes the hardening flags and never a loader hook', () => {
    const spec = sh('true', {
      grants: grants({ env: { PATH: '/bin', LD_PRELOAD: 'x.so', NODE_OPTIONS: '-r x' } }),
    });
    const env = sandboxEnv(spec.grants.env, null);
    const args = bwrapOptions(spec, planLayout(spec, { home }), { disableUserns: true, proxyDir: null, env });
    for (const flag of [
      '--disable-userns',
      '--unshare-pid',
      '--unshare-net',
      '--new-session',
      '--die-with-parent',
      '--clearenv',
    ])
      expect(args).toContain(flag);
    expect(args.join(' ')).toContain('--cap-drop ALL');
    for (const masked of ['/home', '/root', '/tmp', '/run'])
      expect(args.join(' ')).toContain(`--tmpfs ${masked} `);
    expect(args.join(' ')).not.toMatch(/LD_PRELOAD|NODE_OPTIONS/);
  });

  it('root inside cannot remount / read-write, nor open a nested user namespace', async () => {
    const r = await backend().run(
      sh('mount -o remount,rw / 2>&1; touch /etc/skilldeck-remount 2>&1; unshare -U true 2>&1; echo done'),
    );
    expect(r.stdout).toContain('done');
    expect(fs.existsSync('/etc/skilldeck-remount')).toBe(false);
    expect(r.stdout).toMatch(/unshare: unshare failed|Operation not permitted|No space left/);
  });

  it("root inside cannot write the host's kernel settings (/proc/sys), nor the host's hostname", async () => {
    // A root run without capabilities still passes /proc/sys's mode check, and sysctls act
    // on the host's namespaces: kernel.core_pattern there runs a program as host root. The
    // probe writes back the value it read, so a hole changes nothing on this machine.
    const r = await backend().run(
      sh(
        [
          'true 3>>/proc/sys/kernel/core_pattern && echo core_pattern-writable',
          'v=$(cat /proc/sys/kernel/hostname); printf %s "$v" > /proc/sys/kernel/hostname && echo sysctl-writable',
          'hostname "$(cat /proc/sys/kernel/hostname)" 2>/dev/null && echo hostname-settable',
          'echo done',
        ].join('\n'),
      ),
    );
    expect(r.stdout).toBe('done\n');
    expect(r.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it('/dev is read-only and /dev/shm small: files in memory cannot grow past the memory limit', async () => {
    // /dev is a tmpfs as large as half the RAM, outside RLIMIT_DATA: a run could fill it.
    const r = await backend().run(
      sh(
        [
          'touch /dev/planted && echo dev-writable',
          'head -c 100000000 /dev/zero > /dev/shm/big',
          'echo "shm=$(wc -c < /dev/shm/big)"',
          'echo ok > /dev/null && echo devnull-ok',
        ].join('\n'),
      ),
    );
    expect(r.stdout).toBe(`shm=${64 * 1024 * 1024}\ndevnull-ok\n`);
    expect(r.stderr).toMatch(/\/dev\/planted.*Read-only file system/);
    expect(r.stderr).toMatch(/No space left on device/);
  });

  it("a root run cannot read root's private system files (TLS keys, debconf passwords…)", async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip('only a root run owns them inside the sandbox');
    // A system tree outside /tmp and the home, which no mask hides already.
    const sys = fs.mkdtempSync(path.join(__dirname, '../../../../node_modules/.cache-rootonly-'));
    try {
      writeTree(sys, {
        'ssl/private/site.key': 'TLS-PRIVATE-KEY\n',
        'cache/debconf/passwords.dat': 'DEBCONF-PASSWORD\n',
        'cache/debconf/config.dat': 'public config\n',
      });
      fs.chmodSync(path.join(sys, 'ssl/private'), 0o710);
      fs.chmodSync(path.join(sys, 'cache/debconf/passwords.dat'), 0o600);
      const r = await createBwrapBackend({ home, systemRoots: [sys] }).run(
        sh(
          `cat ${sys}/ssl/private/site.key ${sys}/cache/debconf/passwords.dat ${sys}/cache/debconf/config.dat`,
        ),
      );
      expect(r.stdout).toBe('public config\n');
      expect(r.stderr).toMatch(/passwords\.dat: Permission denied/);
      expect(r.stderr).toMatch(/site\.key: No such file or directory/);
    } finally {
      fs.rmSync(sys, { recursive: true, force: true });
    }
  });

  it("a root run cannot read the firmware's ACPI tables (a laptop's Windows key) or the machine's serials", async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip('an ordinary user cannot read them anyway');
    const table = ['DSDT', 'FACP', 'APIC'].map((t) => `/sys/firmware/acpi/tables/${t}`).find(fs.existsSync);
    if (!table) return ctx.skip('this machine shows no ACPI tables');
    const r = await createBwrapBackend({ home }).run(
      sh(`head -c 4 ${table}; echo; cat /sys/class/net/lo/mtu`),
    );
    expect(r.setupError).toBeUndefined();
    expect(r.stdout).toBe(`\n${fs.readFileSync('/sys/class/net/lo/mtu', 'utf8')}`);
    expect(r.stderr).toMatch(/No such file or directory/);
  });

  it('a root-only file removed after a run does not stop the next one (found once per process)', async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip('only a root run looks for root-only files');
    const sys = fs.mkdtempSync(path.join(__dirname, '../../../../node_modules/.cache-rootonly-'));
    try {
      writeTree(sys, { 'lib/dpkg/lock-frontend': '', 'lib/dpkg/status': 'public\n' });
      const lock = path.join(sys, 'lib/dpkg/lock-frontend');
      fs.chmodSync(lock, 0o600);
      const run = (script: string) => createBwrapBackend({ home, systemRoots: [sys] }).run(sh(script));
      const first = await run(`cat ${sys}/lib/dpkg/status; cat ${lock}`);
      expect(first.setupError).toBeUndefined();
      expect(first.stdout).toBe('public\n');
      expect(first.stderr).toMatch(/lock-frontend: Permission denied/);
      fs.rmSync(lock);
      const next = await run(`cat ${sys}/lib/dpkg/status; ls ${sys}/lib/dpkg`);
      expect(next.setupError).toBeUndefined();
      expect(next.exitCode).toBe(0);
      expect(next.stdout).toBe('public\nstatus\n');
    } finally {
      fs.rmSync(sys, { recursive: true, force: true });
    }
  });

  it('a unix socket listening outside the masked folders is not connectable (read-only binds keep them open)', async () => {
    // /tmp and /run are masked for this; a service may listen anywhere else (/srv, /var/lib …).
    const dir = fs.realpathSync(
      fs.mkdtempSync(path.join(__dirname, '../../../../node_modules/.cache-sock-')),
    );
    const socket = path.join(dir, 'service.sock');
    const server = net.createServer((c) => c.end('SERVICE-REACHED\n'));
    await new Promise<void>((done) => server.listen(socket, done));
    fs.chmodSync(socket, 0o777);
    try {
      const r = await backend().run(sh(`socat -u UNIX-CONNECT:${socket} - 2>&1; echo done`));
      expect(r.stdout).not.toContain('SERVICE-REACHED');
      expect(r.stdout).toMatch(/Permission denied|Connection refused|No such file/);
      // Declared, it is reachable.
      const granted = await backend().run(
        sh(`socat -u UNIX-CONNECT:${socket} -`, {
          grants: grants({ read: [socket], declared: { read: [socket], write: [] } }),
        }),
      );
      expect(granted.stdout).toBe('SERVICE-REACHED\n');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('headless Chromium renders inside, with and without the network (scraping and screenshot skills)', async () => {
    // Chromium needs AF_UNIX sockets of its own (a seccomp filter that refused them once
    // broke every networked browser skill), a writable /dev/shm and its zygote's pipes.
    const html = 'data:text/html,<h1>rendered-inside</h1><script>document.body.append("js-ran")</script>';
    for (const network of [false, true]) {
      const r = await backend().run(
        sh(
          `HOME=$PWD TMPDIR=$PWD chromium --headless --no-sandbox --disable-gpu --dump-dom '${html}' 2>/dev/null`,
          {
            grants: grants({ network }),
            timeoutMs: 60_000,
          },
        ),
      );
      expect(r.stdout, `network: ${network}`).toContain('<h1>rendered-inside</h1>');
      expect(r.stdout, `network: ${network}`).toContain('js-ran');
    }
  }, 120_000);

  it('keeps allow-listed values off every command line (bwrap reads its options from fd 3)', async () => {
    const secret = `token-${Date.now()}`;
    const running = backend().run(
      sh('sleep 1; echo "$API_TOKEN"', { grants: grants({ env: { PATH: '/bin', API_TOKEN: secret } }) }),
    );
    await new Promise((done) => setTimeout(done, 400));
    expect(processesWith(secret)).toEqual([]);
    expect((await running).stdout.trim()).toBe(secret);
  });

  it('/tmp and the home are private: host files are absent, writes there never reach the host', async () => {
    const hostFile = path.join(root, 'host-only.txt');
    fs.writeFileSync(hostFile, 'host');
    fs.writeFileSync(path.join(home, 'host-note'), 'host');
    const r = await backend().run(
      sh(`cat ${hostFile}; ls -A "$HOME"; echo planted > "$HOME/planted"; echo ok`),
    );
    expect(r.stdout).toBe('ok\n');
    expect(fs.existsSync(path.join(home, 'planted'))).toBe(false);
  });

  it('the skill folder stays read-only even inside a write grant', async () => {
    const target = path.join(skillDir, 'SKILL.md');
    const r = await backend().run(
      sh(`echo changed > ${target}`, {
        grants: grants({ write: [root], declared: { read: [], write: ['~/**'] } }),
      }),
    );
    expect(fs.readFileSync(target, 'utf8')).toBe('original\n');
    expect(r.violations).toEqual([
      { kind: 'own_folder', target, message: `tried to write ${target}, ${OWN_FOLDER}` },
    ]);
  });

  it('creates missing write folders and reports a missing program as a setup error', async () => {
    const out = path.join(root, 'run', 'deep', 'out');
    const ok = await backend().run(sh(`echo x > ${out}/f`, { grants: grants({ write: [out] }) }));
    expect(ok.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(out, 'f'), 'utf8')).toBe('x\n');
    const missing = await backend().run(sh('', { command: '/nonexistent/python3', args: [] }));
    expect(missing.setupError).toMatch(/^bubblewrap could not start the sandbox: .*nonexistent\/python3/);
  });

  it('says so when a domain list cannot be bridged for lack of socat', async () => {
    const r = await createBwrapBackend({ home, socat: null }).run(
      sh('true', { grants: grants({ network: ['a.com'] }) }),
    );
    expect(r.setupError).toBe(
      'a network allow-list needs socat inside the sandbox; install it (apt-get install socat)',
    );
    expect(r.exitCode).toBeNull();
  });

  it('dies with the engine: a SIGKILLed engine leaves no sandboxed process behind', async () => {
    const fx = await openFixture();
    try {
      const plans = path.join(fx.root, 'plans.json');
      fs.writeFileSync(plans, JSON.stringify([fx.plan('grandchild', 'bash', { timeoutMs: 60_000 })]));
      const engine = execa(process.execPath, [await buildDriver(), plans], { reject: false });
      const marker = sleepArg(fx.ctx, 'bash');
      await waitFor(() => processesWith(marker).length > 0, 15_000);
      expect(processesWith(marker).length).toBeGreaterThan(0);
      engine.kill('SIGKILL');
      await engine;
      await waitFor(() => processesWith(marker).length === 0);
      expect(processesWith(marker)).toEqual([]);
    } finally {
      await fx.close();
    }
  }, 30_000);
});
