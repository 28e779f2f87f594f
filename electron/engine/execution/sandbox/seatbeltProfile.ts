import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside, secretFiles, type SandboxLayout } from './layout';
import type { SandboxSpec } from './types';

// The sandbox-exec profile (seatbelt.ts runs it): pure text from the run's grants, so it is
// tested rule by rule on any OS.

export interface SeatbeltProfileOptions {
  /** The engine user's home; os.homedir() when omitted. */
  home?: string;
  /** More folders to hide. */
  hide?: string[];
  /** The allow-list proxy's loopback port, when the network is a domain list. */
  proxyPort?: number | null;
  /** Root-only files to deny reading; `secretFiles()` when omitted. */
  deny?: string[];
}

/** Mach services an interpreter needs to start (user lookups, logging); nothing that launches processes. */
const MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.logger',
  'com.apple.system.notification_center',
  'com.apple.logd',
  'com.apple.trustd.agent',
  'com.apple.SecurityServer',
];

/** SBPL string literal. */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** sandbox-exec matches real paths (/tmp is /private/tmp on macOS). */
function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let cur = path.dirname(p); cur !== path.dirname(cur); cur = path.dirname(cur)) out.push(cur);
  return out;
}

function seatbeltPaths(spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>, opts: SeatbeltProfileOptions) {
  const home = real(opts.home ?? os.homedir());
  const hidden = [home, '/Users', '/private/tmp', '/private/var/folders', '/private/var/tmp', '/Volumes'];
  const skill = real(spec.skillDir);
  return {
    hidden: [...new Set([...hidden, ...(opts.hide ?? []).map(real)])],
    // The skill's own folder stays read-only (layout.ts): a write grant in it is not one.
    writes: [real(spec.cwd), ...spec.grants.write.map(real).filter((w) => !isInside(w, skill))],
    reads: [spec.skillDir, ...spec.grants.read].map(real),
    denied: opts.deny ?? secretFiles(),
  };
}

/**
 * SkillDeck's data and the other skills (`hide`) that a grant around them would show again (a read
 * grant of `~`): they stay hidden, as bwrap's remasks do.
 */
function regrantedHidden(paths: ReturnType<typeof seatbeltPaths>, opts: SeatbeltProfileOptions): string[] {
  const visible = [...paths.writes, ...paths.reads];
  return [...new Set((opts.hide ?? []).map(real))].filter((k) => visible.some((v) => k.startsWith(`${v}/`)));
}

/** The same rules as a layout, so violations.ts judges sandbox-exec's denials like bwrap's. */
export function seatbeltLayout(
  spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>,
  opts: SeatbeltProfileOptions = {},
): SandboxLayout {
  const paths = seatbeltPaths(spec, opts);
  const { hidden, writes, reads, denied } = paths;
  const binds = [
    ...reads.map((p) => ({ path: p, writable: false })),
    ...writes.map((p) => ({ path: p, writable: true })),
  ];
  return {
    masks: hidden,
    binds: binds.sort((a, b) => a.path.split('/').length - b.path.split('/').length),
    remasks: regrantedHidden(paths, opts),
    deniedFiles: denied,
  };
}

const subpaths = (paths: string[]) => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

/**
 * The sandbox-exec profile for one run, with bwrap's rules (DESIGN §4): deny by default;
 * read the system but not the home, temp folders or mounted volumes, except the skill
 * folder, the work dir and the grants (interpreter prefixes arrive in grants.read); write
 * only the work dir and the write grants; network off, only the proxy on loopback, or on.
 * Later SBPL rules win over earlier ones, which the order below relies on.
 */
export function buildSeatbeltProfile(
  spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>,
  opts: SeatbeltProfileOptions = {},
): string {
  const paths = seatbeltPaths(spec, opts);
  const { hidden, writes, reads, denied } = paths;
  const visible = [...writes, ...reads];
  // Only where a grant would show them again: elsewhere the hidden rule above holds.
  const regranted = regrantedHidden(paths, opts);
  const parents = [...new Set(visible.flatMap(ancestors))];

  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    `(allow mach-lookup ${MACH_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(' ')})`,
    '; system files are readable, like bwrap --ro-bind / /',
    '(allow file-read*)',
    '; home, temp folders and volumes are hidden, like bwrap --tmpfs',
    `(deny file-read* ${subpaths(hidden)})`,
    '; runtimes stat the folders on the way to a granted path',
    `(allow file-read-metadata ${parents.map((p) => `(literal ${sbplString(p)})`).join(' ')})`,
    '; the skill folder, the work dir, the read grants and interpreter prefixes',
    `(allow file-read* ${subpaths([...new Set(visible)])})`,
    ...(denied.length
      ? [
          '; root-only system secrets',
          `(deny file-read* ${denied.map((f) => `(literal ${sbplString(f)})`).join(' ')})`,
        ]
      : []),
    '; writes: only the work dir and the write grants',
    `(allow file-write* ${subpaths([...new Set(writes)])} (literal "/dev/null") (regex #"^/dev/tty") (literal "/dev/stdout") (literal "/dev/stderr"))`,
    "; the skill's own folder stays read-only, even inside a write grant",
    `(deny file-write* ${subpaths([reads[0]])})`,
    ...(regranted.length
      ? [
          "; SkillDeck's data and the other skills stay hidden under any grant, but for this skill and run",
          `(deny file-read* file-write* ${subpaths(regranted)})`,
          `(allow file-read* ${subpaths([reads[0], writes[0]])})`,
          `(allow file-write* ${subpaths([writes[0]])})`,
        ]
      : []),
  ];
  const network = spec.grants.network;
  if (network === true) {
    lines.push(
      '; network: any host',
      '(allow network*)',
      '(allow mach-lookup (global-name "com.apple.dnssd.service"))',
    );
  } else if (Array.isArray(network) && opts.proxyPort) {
    lines.push(
      `; network: only the allow-list proxy (${network.join(', ')})`,
      `(allow network-outbound (remote ip ${sbplString(`localhost:${opts.proxyPort}`)}))`,
    );
  } else {
    lines.push('; network: none');
  }
  return `${lines.join('\n')}\n`;
}
