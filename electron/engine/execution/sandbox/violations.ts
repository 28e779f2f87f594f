import fs from 'node:fs';
import path from 'node:path';
import type { Violation } from '../../../../shared/contract';
import { isInside, visibleInside, writableInside, type SandboxLayout } from './layout';
import { hostAllowed, type ProxyRefusal } from './hosts';
import { scanStderr, type FsHit, type NetHit } from './stderrScan';
import type { SandboxSpec } from './types';

export interface ViolationInput {
  spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants' | 'maxOutputBytes'>;
  stderr: string;
  /** The file system the run saw; null when files and network were not enforced (process tier). */
  layout: SandboxLayout | null;
  refusedHosts: string[];
  /** The proxy's refusals with their reasons; when given, they word the messages instead of refusedHosts. */
  proxyRefusals?: ProxyRefusal[];
  truncated: boolean;
  /** The engine's environment, to tell "not allow-listed" from "not set anywhere". */
  hostEnv?: NodeJS.ProcessEnv;
  /** The loopback port of the allow-list bridge inside the sandbox (its own failures are not the skill's). */
  proxyPort?: number;
}

const MAX_VIOLATIONS = 20;

/** Why a write into the skill's own folder failed, and what the skill can do instead (layout.ts). */
export const OWN_FOLDER =
  'inside its own folder, which stays read-only while it runs, so that a skill cannot change its own instructions, permissions or code; have it write to its run folder or a write path outside its folder instead';

const list = (items: string[]) => (items.length ? items.join(', ') : '(none declared)');

function kib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB`
    : `${+(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Turns a run's proxy refusals and stderr into exact messages ("tried to write /etc/x,
 * outside its write paths ./out/**"), checked against the grants: only what lies outside
 * them is reported, so a missing file inside the grants stays an ordinary failure
 * (issue 7 §4). Python, Bash/coreutils and Node phrase the OS errors differently; the
 * scanner reads all three.
 */
export function findViolations(input: ViolationInput): Violation[] {
  const { spec, layout } = input;
  const out = new Map<string, Violation>();
  const add = (v: Violation) => {
    const key = `${v.kind}\0${v.target}`;
    if (!out.has(key) && out.size < MAX_VIOLATIONS) out.set(key, v);
  };
  const network = spec.grants.network;
  const allow = Array.isArray(network) ? network : [];

  const refusals =
    input.proxyRefusals ?? input.refusedHosts.map((host): ProxyRefusal => ({ host, reason: 'not_allowed' }));
  for (const r of refusals) {
    add({
      kind: 'network',
      target: r.host,
      message:
        r.reason === 'not_allowed'
          ? `tried to reach ${r.host}, not in its network allow-list: ${list(allow)}`
          : `tried to reach ${r.host}, which resolves to ${r.address ?? 'a local address'} on this machine or its local network; the allow-list reaches those only when the skill lists the address itself`,
    });
  }
  if (input.truncated) {
    add({
      kind: 'output',
      target: `${spec.maxOutputBytes} bytes`,
      message: `printed more than ${kib(spec.maxOutputBytes)} of output, its cap; it was stopped there`,
    });
  }

  const hits = scanStderr(input.stderr);
  if (layout) {
    for (const hit of hits.fs) {
      const v = fsViolation(hit, spec, layout);
      if (v) add(v);
    }
    if (network !== true) {
      const net = hits.net.filter(
        (h) => !(input.proxyPort && h.port === input.proxyPort && isLoopback(h.host)),
      );
      const known = net.filter((h) => h.host !== null);
      for (const h of known) add(netViolation(h, network));
      if (known.length === 0 && net.length > 0) add(netViolation({ host: null, port: null }, network));
    }
  }
  const hostEnv = input.hostEnv ?? process.env;
  for (const name of hits.env) {
    if (hostEnv[name] === undefined || name in spec.grants.env) continue;
    add({
      kind: 'env',
      target: name,
      message: `tried to read the environment variable ${name}, which is not in its environment allow-list`,
    });
  }
  return [...out.values()];
}

function isLoopback(host: string | null): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

/**
 * EBUSY: the script moved or removed a mount point, which the kernel refuses: a guarded path
 * (`mv .git .git-old`), a folder above guarded ones (.config), or a write path itself (`rm -rf
 * out && mkdir out` under a grant of out/**). Only "Device or resource busy" told the user so.
 * A relative name (after a `cd`) is matched to a guard by its ending, else reported as written.
 */
function busyViolation(hit: FsHit, spec: ViolationInput['spec'], layout: SandboxLayout): Violation {
  const writes = list(spec.grants.declared.write);
  // Renamed over a mount point (`os.replace(tmp, 'report.txt')` under a grant of that file): the
  // destination is the one the sandbox holds.
  const mounted = (p: string) => path.isAbsolute(p) && layout.binds.some((b) => b.path === path.resolve(p));
  const name = (hit.to && mounted(hit.to) && !mounted(hit.path) ? hit.to : hit.path).replace(/\/+$/, '');
  const abs = path.isAbsolute(name) ? path.resolve(name) : null;
  const guard = layout.guarded?.find((g) => (abs ? isInside(abs, g) : g.endsWith(`/${name}`)));
  // `rm -rf out` meets the empty stand-ins of missing guarded files in out (guarded.ts): one
  // violation names the folder rather than each stand-in the user never made.
  const made = new Set(layout.created ?? []);
  if (abs && made.has(abs)) {
    let top = abs;
    while (made.has(path.dirname(top))) top = path.dirname(top);
    const folder = path.dirname(top);
    return {
      kind: 'write',
      grantable: false,
      target: folder,
      message: `tried to remove ${folder}, where the sandbox keeps empty read-only stand-ins for files that would run code outside it (.git, .envrc …) while the skill runs; remove what is inside it instead`,
    };
  }
  const target = abs ?? guard ?? name;
  return {
    kind: 'write',
    grantable: false,
    target,
    message: guard
      ? `tried to move or remove ${target}, which runs code outside the sandbox (${path.basename(guard)}): kept in place and read-only under its write paths ${writes}`
      : `tried to move or remove ${target}, which the sandbox mounts in place while the skill runs (a write path, or the folder above guarded files); change what is inside it instead (its write paths: ${writes})`,
  };
}

function fsViolation(hit: FsHit, spec: ViolationInput['spec'], layout: SandboxLayout): Violation | null {
  if (hit.code === 'EBUSY') return busyViolation(hit, spec, layout);
  const target = path.resolve(spec.cwd, hit.path);
  const writes = list(spec.grants.declared.write);
  const reads = list(spec.grants.declared.read);
  // A read-only file system where the run folder is writable: the name is relative to a folder
  // the script changed to (`cd /etc && echo x > planted.conf`), which the engine cannot know.
  // Reported by that name, which is nothing to grant (widenable takes absolute paths only).
  if (hit.code === 'EROFS' && !path.isAbsolute(hit.path) && writableInside(target, layout))
    return {
      kind: 'write',
      target: hit.path,
      message: `tried to write ${hit.path} in a folder it changed to, not its run folder, which the sandbox keeps read-only there (its write paths: ${writes}); have the skill write to its run folder or a write path by its full name`,
    };
  const write = (): Violation | null => {
    if (writableInside(target, layout)) return null;
    const guard = layout.guarded?.find((g) => isInside(target, g));
    if (guard)
      return {
        kind: 'write',
        target,
        message: `tried to write ${target}, which runs code outside the sandbox (${path.basename(guard)}): kept read-only under its write paths ${writes}`,
      };
    if (isInside(target, path.resolve(spec.skillDir)) || isInside(target, realPath(spec.skillDir)))
      return { kind: 'own_folder', target, message: `tried to write ${target}, ${OWN_FOLDER}` };
    return { kind: 'write', target, message: `tried to write ${target}, outside its write paths ${writes}` };
  };
  const read = (): Violation => {
    const socket = isSocket(target);
    // Inside a read grant yet hidden: keys, credentials, SkillDeck's data (policy.ts, layout.ts).
    const kept = spec.grants.read.some((g) => isInside(target, path.resolve(g)));
    return {
      kind: 'read',
      target,
      message: socket
        ? `tried to connect to the socket ${target}, outside its read paths ${reads}`
        : kept
          ? `tried to read ${target}, which holds keys, credentials or SkillDeck's own data: hidden under its read paths ${reads}, shown only to a read path that names it`
          : `tried to read ${target}, outside its read paths ${reads}`,
    };
  };

  if (hit.code === 'EROFS') return write();
  if (hit.code === 'ENOENT') {
    // Hidden by a mask: the file (or the folder it would be in) exists on the host but not inside.
    if (visibleInside(nearestExisting(target), layout)) return null;
    if (hit.write !== undefined) return hit.write ? write() : read();
    // Direction unknown (bash's `echo x > path`, Node's open): a file the host does not have
    // either was being created; one it has was being read.
    return pathExists(target) ? read() : write();
  }
  // EACCES/EPERM. sandbox-exec also answers a hidden path this way (bwrap gives ENOENT, above).
  // A link (~/.netrc made by a dotfile manager) is covered where it leads.
  const hidden = !visibleInside(target, layout) || !visibleInside(realPath(target), layout);
  const granted = [spec.cwd, spec.skillDir, ...spec.grants.read, ...spec.grants.write].some((g) =>
    isInside(target, path.resolve(g)),
  );
  if (hit.write === true) return write();
  if (hit.write === false) return hidden || !granted ? read() : null;
  // Unknown direction: a path that does not exist was being created; one we can read on the host failed for writing.
  if (!pathExists(target)) return write();
  if (hidden) return read();
  if (readable(target)) return write();
  return granted ? null : read();
}

function netViolation(hit: NetHit, network: boolean | string[]): Violation {
  const where = hit.port ? `${hit.host}:${hit.port}` : hit.host;
  if (network === false || network === true) {
    return where
      ? {
          kind: 'network',
          target: where,
          message: `tried to reach ${where} over the network, which it does not declare`,
        }
      : {
          kind: 'network',
          target: 'network',
          message: 'tried to reach the network, which it does not declare',
        };
  }
  if (where && hit.host && !hostAllowed(hit.host, network)) {
    return {
      kind: 'network',
      target: hit.host,
      message: `tried to reach ${hit.host}, not in its network allow-list: ${list(network)}`,
    };
  }
  return {
    kind: 'network',
    target: where ?? 'network',
    message: `tried to reach ${where ?? 'the network'} directly; only ${list(network)} can be reached, through the allow-list proxy (HTTPS_PROXY)`,
  };
}

/** The deepest existing folder or file on the way to absolute `p` (`/` at worst). */
function nearestExisting(p: string): string {
  let cur = p;
  while (!pathExists(cur)) cur = path.dirname(cur);
  return cur;
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function pathExists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function readable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function isSocket(p: string): boolean {
  try {
    return fs.lstatSync(p).isSocket();
  } catch {
    return false;
  }
}
