import fs from 'node:fs';
import path from 'node:path';
import type { SkillMetadata } from '../../../shared/contract';

/** What a skill declares it needs and this machine lacks right now (DESIGN §3: context readiness). */
export interface Unmet {
  bins: string[];
  /** Set when none of `requires.anyBins` is on PATH: the whole list. */
  anyBins: string[];
  env: string[];
  /** Set when `requires.os` excludes this platform: the platforms it allows. */
  os: string[];
}

const OS_NAMES: Record<string, string> = { darwin: 'darwin', linux: 'linux', win32: 'win32' };

/** True when an executable named `bin` is on `PATH` (checked fresh: installs change it). */
export function onPath(bin: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (bin.includes('/') || bin.includes('\\')) return isExecutable(bin);
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) if (isExecutable(path.join(dir, bin + ext))) return true;
  }
  return false;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Checks `requires` (bins, anyBins, env, os) against this process's PATH, env and platform. */
export function unmetRequirements(
  m: SkillMetadata,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Unmet {
  const r = m.requires;
  const anyMet = r.anyBins.length === 0 || r.anyBins.some((b) => onPath(b, env));
  const os = r.os.length > 0 && !r.os.includes(OS_NAMES[platform] ?? platform) ? r.os : [];
  return {
    bins: r.bins.filter((b) => !onPath(b, env)),
    anyBins: anyMet ? [] : r.anyBins,
    env: r.env.filter((name) => !env[name]),
    os,
  };
}

/** The unmet requirements as short plain sentences, for previews and the CLI. */
export function describeUnmet(u: Unmet): string[] {
  const out: string[] = [];
  if (u.bins.length) out.push(`not on PATH: ${u.bins.join(', ')}`);
  if (u.anyBins.length) out.push(`none of these on PATH: ${u.anyBins.join(', ')}`);
  if (u.env.length) out.push(`environment variables not set: ${u.env.join(', ')}`);
  if (u.os.length) out.push(`only for ${u.os.join(', ')}`);
  return out;
}
