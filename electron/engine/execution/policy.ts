import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SkillMetadata } from '../../../shared/contract';
import { namesLocalHost } from './sandbox/hosts';
import { isGuarded } from './sandbox/guarded';

/** DESIGN §4: 120 s unless the skill says otherwise. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Never longer than this, whatever a skill declares (a run holds a sandbox and a slot). */
export const MAX_TIMEOUT_MS = 30 * 60_000;

/** A declared path and where it lands on this machine. */
export interface GrantPath {
  /** As the skill wrote it (`./out/**`, `~/Documents/**`). */
  declared: string;
  /** The folder or file bound into the sandbox: the glob's static prefix, resolved. */
  abs: string;
}

/** One skill's execution policy, normalized from every format (issue 7 item 1). */
export interface ExecutionPolicy {
  sandbox: 'none' | 'process' | 'os';
  approval: 'ask' | 'auto' | 'deny';
  timeoutMs: number;
  read: GrantPath[];
  write: GrantPath[];
  network: boolean | string[];
  /** Environment variables the skill may see (besides the plumbing the engine owns). */
  envAllow: string[];
  /** Why approval is asked even when `approval: auto` (dangerous, confirm). */
  reasons: string[];
}

/** Where relative and prefixed grant paths resolve (DESIGN §4). */
export interface PathContext {
  /** The run's scratch working folder: `./…` and bare relative paths. */
  workDir: string;
  skillDir: string;
  workspace: string;
  /** The user's home: `~/…`. */
  home: string;
  /**
   * $SKILLDECK_HOME and the skill roots: hidden from every run, shown only to a grant that
   * names them (sandbox/layout.ts keepHidden), which a skill's own `approval: auto` never covers.
   */
  private?: string[];
  /** The environment allow-listed variables come from: a value can hold a password (a connection string). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Folders of the home that hold keys and credentials (SSH, cloud CLIs, GnuPG, kubeconfig, Docker
 * and GitHub CLI logins, password stores, keyrings). Hidden under any grant around them, as
 * $SKILLDECK_HOME is; a grant that names one shows it, and a skill's own `approval: auto` never
 * covers that: what a run reads reaches its output, and an instruction skill's model.
 */
const CREDENTIAL_DIRS = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.password-store',
  '.local/share/keyrings',
];

/** The credential folders of `home` (whether or not they exist). */
export const credentialDirs = (home: string): string[] => CREDENTIAL_DIRS.map((d) => path.join(home, d));

/**
 * Files of the home whose purpose is to hold a password, token or key: tools' login stores, not
 * ordinary dotfiles. Each one that exists is covered by an unreadable file under any grant around
 * it (sandbox/layout.ts), and a grant that names one asks, as the folders above do.
 */
const CREDENTIAL_FILES = [
  '.netrc', // curl, git, ftp, heroku logins
  '.authinfo',
  '.authinfo.gpg',
  '.git-credentials',
  '.config/git/credentials',
  '.config/hub',
  '.npmrc', // registry _authToken
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.mylogin.cnf',
  '.vault-token',
  '.boto',
  '.s3cfg',
  '.dockercfg',
  '.config/containers/auth.json',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.config/rclone/rclone.conf',
  '.terraform.d/credentials.tfrc.json',
  '.composer/auth.json',
  '.config/composer/auth.json',
  '.m2/settings-security.xml',
  '.pulumi/credentials.json',
  '.databrickscfg',
  '.kaggle/kaggle.json',
  '.huggingface/token',
  '.cache/huggingface/token',
  '.config/doctl/config.yaml',
  '.config/hcloud/cli.toml',
  '.config/stripe/config.toml',
  '.config/configstore/firebase-tools.json',
  '.ngrok2/ngrok.yml',
  '.config/ngrok/ngrok.yml',
  '.fetchmailrc',
  '.msmtprc',
];

/** The credential files of `home` (whether or not they exist). */
export const credentialFiles = (home: string): string[] => CREDENTIAL_FILES.map((f) => path.join(home, f));

/**
 * Names of variables that hold keys and credentials (Codex keeps *KEY*, *SECRET*, *TOKEN* out of
 * its commands' environment by default): a skill's own `approval: auto` never hands them over.
 */
const SECRET_ENV =
  /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|WEBHOOK|COOKIE|(?:^|_)(?:AUTH|PASS|PAT|DSN)(?:_|$)/i;

/** A URL with a password in it (`postgres://app:pw@db/prod`): a connection string is a credential whatever its name. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i;

/** Variables a skill may never set or receive: they change how every program loads. */
const FORBIDDEN_ENV = /^(LD_|DYLD_)|^NODE_OPTIONS$|^PYTHONSTARTUP$|^BASH_ENV$|^ENV$/;

const WORKSPACE_PREFIX = /^(\$\{?WORKSPACE\}?|\{workspace\})(?=\/|$)/;
const PREFIXES: [RegExp, 'skillDir' | 'workspace' | 'workDir' | 'home'][] = [
  [/^(\$\{?SKILL_(DIR|PATH|ROOT)\}?|\{baseDir\}|\$\{?BASE_DIR\}?)(?=\/|$)/, 'skillDir'],
  [WORKSPACE_PREFIX, 'workspace'],
  [/^(\$\{?(OUT|OUTPUT_DIR|WORK_DIR)\}?|\{out\})(?=\/|$)/, 'workDir'],
  [/^(~|\$\{?HOME\}?)(?=\/|$)/, 'home'],
];

/** The part of a glob before its first wildcard segment (`./out/**` → `./out`). */
export function staticPrefix(pattern: string): string {
  const parts = pattern.split('/');
  const cut = parts.findIndex((p) => /[*?[{]/.test(p));
  const kept = cut === -1 ? parts : parts.slice(0, cut);
  const joined = kept.join('/');
  return joined === '' && pattern.startsWith('/') ? '/' : joined || '.';
}

/** Resolve one declared path (`~`, `./`, `$SKILL_DIR`, `$WORKSPACE`, absolute; globs) to an absolute folder. */
export function resolveGrantPath(declared: string, ctx: PathContext): string {
  const text = declared.trim().replace(/\\/g, '/');
  for (const [re, key] of PREFIXES) {
    if (!re.test(text)) continue;
    // Cut the pattern before the placeholder is filled in: the folder it stands for is a name,
    // never a pattern. Cut after, a workspace named `proj[1]` made `{workspace}/**` its parent.
    const rest = staticPrefix(`.${text.replace(re, '')}`);
    return path.resolve(ctx.workDir, ctx[key], rest);
  }
  const prefix = staticPrefix(text);
  return path.isAbsolute(prefix) ? path.normalize(prefix) : path.resolve(ctx.workDir, prefix);
}

/** Which of the skill's declared paths a concrete absolute path falls under, if any. */
export function coveredBy(target: string, grants: GrantPath[]): GrantPath | undefined {
  const t = path.resolve(target);
  return grants.find((g) => t === g.abs || t.startsWith(g.abs.endsWith('/') ? g.abs : `${g.abs}/`));
}

/** Folders of the system itself: a workspace there (`cd /etc`) is no project of the skill's. */
const SYSTEM_DIRS = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/boot',
  '/proc',
  '/sys',
  '/dev',
];

const realPath = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
};

const within = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Whether the workspace is a project folder a skill's own `approval: auto` may stand for. The
 * CLI's workspace is its cwd, often the home (a terminal opened at ~): that, any folder above
 * it (`/`, `/home`) or a system folder would let auto cover ~/.bashrc, ~/.ssh or /etc.
 */
function projectFolder(ctx: PathContext): boolean {
  const ws = path.resolve(ctx.workspace);
  if (within(path.resolve(ctx.home), ws)) return false;
  return !SYSTEM_DIRS.some((d) => within(ws, d));
}

/**
 * The normalized policy of running one of a skill's programs (DESIGN §4): `sandbox` defaults
 * to `os`, `approval` to `ask` (a program is a command: "default ask for anything that runs a
 * command"), `timeout` to 120 s. apex-bridge `dangerous: true` and `confirm` always ask.
 */
export function resolvePolicy(m: SkillMetadata, ctx: PathContext): ExecutionPolicy {
  const grant = (declared: string): GrantPath => ({ declared, abs: resolveGrantPath(declared, ctx) });
  const read = m.permissions.filesystem.read.map(grant);
  const write = m.permissions.filesystem.write.map(grant);
  const network = m.permissions.network.outbound;
  const envAllow = [
    ...new Set([
      ...m.permissions.environment.allow,
      ...m.requires.env,
      // Stryker disable next-line ArrayDeclaration: a placeholder here would fail the name filter below
      ...(m.primaryEnv ? [m.primaryEnv] : []),
    ]),
  ].filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !FORBIDDEN_ENV.test(name));
  const reasons: string[] = [];
  // A skill's own `approval: auto` covers what stays in its run folder, its own folder and the
  // workspace; it cannot approve writing elsewhere, the whole network, or reading elsewhere while
  // it can send what it read out (DESIGN §4: nothing that needs approval runs without one).
  // "Always allow" remembers the user's answer. Its own folder stays read-only for its runs
  // whatever it declares (sandbox/layout.ts), so auto never lets it rewrite its permissions.
  if (m.execution.approval === 'auto') {
    const near = [ctx.workDir, ctx.skillDir, ...(projectFolder(ctx) ? [ctx.workspace] : [])]
      .map((d) => path.resolve(d))
      .flatMap((d) => [d, realPath(d)]);
    // As written and where its links lead: a link in its own folder to ~/.netrc reads ~/.netrc.
    const ends = (g: GrantPath) => [g.abs, realPath(g.abs)];
    const outside = (g: GrantPath) => ends(g).filter((a) => !near.some((d) => within(a, d)));
    const beyond = (g: GrantPath) => outside(g).length > 0;
    const privateDirs = (ctx.private ?? []).map((p) => path.resolve(p)).flatMap((p) => [p, realPath(p)]);
    const theirs = (g: GrantPath) => outside(g).some((a) => privateDirs.some((p) => within(a, p)));
    const home = path.resolve(ctx.home);
    const credentials = [...credentialDirs(home), ...credentialFiles(home)].flatMap((k) => [k, realPath(k)]);
    const keys = (g: GrantPath) => ends(g).some((a) => credentials.some((k) => within(a, k)));
    const whose = (g: GrantPath) =>
      keys(g) ? ' (keys and credentials)' : theirs(g) ? " (SkillDeck's own data or another skill's)" : '';
    const far = [
      ...read
        .filter((g) => beyond(g) && (network !== false || theirs(g) || keys(g)))
        .map((g) => `reads ${g.declared}${whose(g)}`),
      ...write.filter(beyond).map((g) => `writes ${g.declared}`),
    ];
    if (network === true) far.push('reaches any host on the network');
    if (far.length > 0)
      reasons.push(
        `it declares approval: auto, but ${far.join(', ')}, outside its own folders and the workspace`,
      );
    // Named, they are granted (sandbox/layout.ts GUARDED), inside the workspace too.
    const guarded = write.filter((g) => isGuarded(g.abs)).map((g) => g.declared);
    if (guarded.length > 0)
      reasons.push(
        `it declares approval: auto, but writes ${guarded.join(', ')}, which runs code outside the sandbox (git hooks, shell or editor start-up files), which auto never covers`,
      );
    const secrets = envAllow.filter(
      (name) => SECRET_ENV.test(name) || URL_WITH_PASSWORD.test(ctx.env?.[name] ?? ''),
    );
    if (secrets.length > 0)
      reasons.push(
        `it declares approval: auto, but is given ${secrets.join(', ')} from your environment (keys and credentials), which auto never covers`,
      );
    const local = Array.isArray(network) ? network.filter((h) => namesLocalHost(h)) : [];
    if (local.length > 0)
      reasons.push(
        `it declares approval: auto, but reaches ${local.join(', ')}, on this machine or its local network (model servers, databases, SkillDeck's browser host), which auto never covers`,
      );
  }
  if (m.execution.dangerous) reasons.push('its author marks it dangerous');
  if (m.execution.confirm) reasons.push(m.execution.confirmMessage ?? 'its author asks for confirmation');
  // This is the policy of running one of the skill's programs, and that runs a command whatever
  // the skill's type: an instruction skill's script, called by the model through
  // run_skill_script, asks like a script skill's entrypoint unless the skill says otherwise.
  const approval = m.execution.approval ?? 'ask';
  const declaredTimeout = m.execution.timeoutMs ?? 0;
  const timeoutMs = declaredTimeout > 0 ? Math.min(declaredTimeout, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  return {
    sandbox: m.execution.sandbox ?? 'os',
    approval,
    timeoutMs,
    read,
    write,
    network: Array.isArray(network) ? [...new Set(network.map((h) => h.toLowerCase()))] : network,
    envAllow,
    reasons,
  };
}

/**
 * A declared path, and where a link on its way leads: the sandbox binds it there, so a link
 * planted since the answer (another run's `cache` → ~/.ssh) makes it another grant.
 */
const bound = (g: GrantPath): string => {
  const real = realPath(g.abs);
  // A workspace path is the folder the user answered in, as the question showed it: "always"
  // for ~/code/app/** is not "always" for the whole home when the next run starts from ~.
  const inWorkspace = WORKSPACE_PREFIX.test(g.declared.trim().replace(/\\/g, '/'));
  return real === g.abs && !inWorkspace ? g.declared : `${g.declared} → ${real}`;
};

/**
 * A digest of what the skill declares it may do. An "always allow" grant binds to it and
 * to the content hash, so an edited or widened skill asks again (DESIGN §4).
 */
export function permissionsDigest(policy: ExecutionPolicy): string {
  const canonical = JSON.stringify({
    sandbox: policy.sandbox,
    read: policy.read.map(bound).sort(),
    write: policy.write.map(bound).sort(),
    network: Array.isArray(policy.network) ? [...policy.network].sort() : policy.network,
    env: [...policy.envAllow].sort(),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/** Names a caller may not pass through, even when a skill lists them. */
export const isForbiddenEnv = (name: string): boolean => FORBIDDEN_ENV.test(name);
