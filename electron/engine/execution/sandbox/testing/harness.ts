import { execa } from 'execa';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tempDir, writeTree } from '../../../../testing/fixtures';
import type { SandboxGrants } from '../types';
import { runPlans, type ProbeOutcome, type ProbePlan } from './planRunner';

/** bwrap options for a plain PID namespace with its own /proc over the host's files, read-only. */
export const PID_NS = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--unshare-pid',
  '--die-with-parent',
];
import { probeFile, probeTree, type Lang, type ProbeContext, type ProbeName } from './probes';

/** The throwaway non-root user the suite creates once (and leaves: other test files may be using it). */
export const PROBE_USER = 'skilldeck-probe';
export const SECRET_VAR = 'SKILLDECK_PROBE_SECRET';
export const ALLOWED_VAR = 'SKILLDECK_PROBE_ALLOWED';
const SECRET_VALUE = 'do-not-leak-7f3a';
export const ALLOWED_VALUE = 'visible-2c9d';
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');
/** Fake homes live outside /tmp, so only the home mask (not the /tmp one) hides them. */
const homesRoot = path.join(repoRoot, 'node_modules', '.cache', 'skilldeck-sandbox-tests');

export interface Runner {
  /** `root`, `uid N` or `non-root`, for test names. */
  user: string;
  /** Why this runner cannot run here (tests report it, never pass silently); null when it can. */
  unavailable: string | null;
  run(plans: ProbePlan[], fixture: ProbeFixture): Promise<ProbeOutcome[]>;
}

export interface ProbeFixture {
  root: string;
  skillDir: string;
  home: string;
  ctx: ProbeContext;
  /** Hosts the test HTTP server answered, in order (it stands in for allowed.test / denied.test). */
  served: string[];
  plan(
    probe: ProbeName,
    lang: Lang,
    overrides?: Partial<ProbePlan>,
    grants?: Partial<SandboxGrants>,
  ): ProbePlan;
  close(): Promise<void>;
}

/** A skill folder holding every probe, a fake home with ~/.ssh/id_rsa, a loopback HTTP server and a host unix socket. */
export async function openFixture(): Promise<ProbeFixture> {
  const root = tempDir('skilldeck-sbx-');
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(homesRoot, { recursive: true });
  // By its real path: the sandbox masks real paths, and Stryker's copy of the repo reaches
  // node_modules through a symlink.
  const home = fs.mkdtempSync(path.join(fs.realpathSync(homesRoot), 'home-'));
  writeTree(home, {
    '.ssh/id_rsa': 'FAKE PRIVATE KEY\n',
    '.netrc': 'machine example.com login me password FAKE-NETRC-SECRET\n',
    'notes.txt': 'home notes\n',
    'docs/notes.txt': 'granted notes\n',
  });

  const served: string[] = [];
  const server = http.createServer((req, res) => {
    served.push(req.headers.host ?? '');
    res.end(`hello from ${req.headers.host}\n`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as net.AddressInfo).port;

  const socketPath = path.join(root, 'probe.sock');
  // A client gone before the greeting (a probe refused halfway) is no error of the harness.
  const sockets = net.createServer((s) => s.on('error', () => {}).end('hello from the host socket\n'));
  await new Promise<void>((done) => sockets.listen(socketPath, done));
  fs.chmodSync(socketPath, 0o777);

  const rand = Math.floor(Math.random() * 1e6);
  const ctx: ProbeContext = {
    outsidePath: `/etc/skilldeck-probe-${rand}`,
    grantedFile: path.join(home, 'docs/notes.txt'),
    port,
    socketPath,
    sleepMarker: `${4000 + (rand % 1000)}.${rand}`,
    secretVar: SECRET_VAR,
    allowedVar: ALLOWED_VAR,
  };
  const skillDir = path.join(root, 'skill');
  writeTree(skillDir, {
    'SKILL.md': '---\nname: probes\ndescription: sandbox probes\n---\n',
    ...probeTree(ctx),
  });
  process.env[SECRET_VAR] = SECRET_VALUE;

  const plan: ProbeFixture['plan'] = (probe, lang, overrides = {}, grants = {}) => {
    const id = `${probe}-${lang}-${overrides.backend ?? 'bwrap'}`;
    const cwd = path.join(root, 'runs', id);
    return {
      id,
      backend: 'bwrap',
      script: path.join(skillDir, probeFile(probe, lang)),
      cwd,
      skillDir,
      home,
      timeoutMs: 15_000,
      maxOutputBytes: 256 * 1024,
      hostMap: { 'allowed.test': { host: '127.0.0.1', port }, 'denied.test': { host: '127.0.0.1', port } },
      ...overrides,
      grants: {
        read: [],
        write: [path.join(cwd, 'out')],
        network: false,
        env: { PATH: SANDBOX_PATH, HOME: home, LANG: 'C.UTF-8', [ALLOWED_VAR]: ALLOWED_VALUE },
        declared: { read: [], write: ['./out/**'] },
        ...grants,
      },
    };
  };

  return {
    root,
    skillDir,
    home,
    ctx,
    served,
    plan,
    async close() {
      await new Promise<void>((done) => server.close(() => done()));
      await new Promise<void>((done) => sockets.close(() => done()));
      delete process.env[SECRET_VAR];
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs plans in this process, as the user running the tests. */
export const currentUserRunner: Runner = {
  user: process.getuid?.() === 0 ? 'root' : `uid ${process.getuid?.()}`,
  unavailable: null,
  run: (plans) => runPlans(plans),
};

/**
 * Runs plans as a throwaway non-root user: the probe driver bundled into a temp folder,
 * started with `runuser`. Needs root to create the user; otherwise `unavailable` says so.
 */
export async function nonRootRunner(): Promise<Runner> {
  const base = { user: 'non-root' as const };
  if (process.getuid?.() !== 0) {
    const unavailable = `the tests run as uid ${process.getuid?.()}, not root: they cannot create the throwaway user the non-root probes run as`;
    return { ...base, unavailable, run: () => Promise.reject(new Error(unavailable)) };
  }
  await ensureProbeUser();
  const driver = await buildDriver();
  return {
    ...base,
    unavailable: null,
    async run(plans, fixture) {
      const file = path.join(fixture.root, 'plans.json');
      fs.writeFileSync(file, JSON.stringify(plans));
      await execa('chown', ['-R', `${PROBE_USER}:`, fixture.root, fixture.home]);
      const env = [`HOME=${fixture.home}`, `PATH=${process.env.PATH}`, `${SECRET_VAR}=${SECRET_VALUE}`];
      const run = await execa(
        'runuser',
        ['-u', PROBE_USER, '--', '/usr/bin/env', ...env, process.execPath, driver, file],
        {
          reject: false,
          timeout: 120_000,
        },
      );
      if (run.exitCode !== 0) throw new Error(`probe driver failed (${run.exitCode}): ${run.stderr}`);
      return JSON.parse(run.stdout) as ProbeOutcome[];
    },
  };
}

/** Creates the throwaway user unless it exists (needs root). */
export async function ensureProbeUser(): Promise<void> {
  // Test files run in parallel: another one may be creating the user (useradd locks /etc/passwd).
  const exists = async () => (await execa('id', ['-u', PROBE_USER], { reject: false })).exitCode === 0;
  for (let attempt = 0; !(await exists()); attempt++) {
    const add = await execa(
      'useradd',
      ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', PROBE_USER],
      {
        reject: false,
      },
    );
    if (add.exitCode !== 0 && attempt >= 10) throw new Error(`useradd ${PROBE_USER} failed: ${add.stderr}`);
    if (add.exitCode !== 0) await new Promise((done) => setTimeout(done, 200));
  }
}

/** Bundles the probe driver into a temp folder anyone can read; returns the .cjs path. */
export async function buildDriver(): Promise<string> {
  const dir = tempDir('skilldeck-driver-');
  fs.chmodSync(dir, 0o755);
  const driver = path.join(dir, 'driver.cjs');
  await build({
    entryPoints: [path.join(here, 'probeDriver.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: driver,
    logLevel: 'warning',
  });
  fs.chmodSync(driver, 0o644);
  return driver;
}

/** Host pids whose command line holds `marker` (the grandchild `sleep` of the timeout probe). */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids.filter((pid) => pid !== process.pid);
}

/** Polls `done` until it holds or `ms` pass (SIGKILLed orphans are reaped a little later under load). */
export async function waitFor(done: () => boolean, ms = 2000): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
}

/** The outcome with this id, failing loudly when the driver lost it. */
export function pick(outcomes: ProbeOutcome[], id: string): ProbeOutcome {
  const found = outcomes.find((o) => o.id === id);
  if (!found) throw new Error(`no outcome for ${id}`);
  return found;
}
