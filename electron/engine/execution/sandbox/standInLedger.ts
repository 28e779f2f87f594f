import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { holdCreated, releaseCreated, removeUnheld } from './guarded';

// The stand-ins of missing guarded files (guarded.ts) are made in the user's folders. Kept only
// in this process's memory, an engine killed mid-run (SIGKILL, a crash, power loss) left them
// there for good: an empty read-only .git made `git init` fail, and .envrc, .bashrc and a dozen
// more sat in the project. Another engine (the CLI beside the app) could not tell them from the
// user's files, and removed them under its own run, whose bwrap then did not start. Each run
// now writes what it made to a ledger in $SKILLDECK_HOME before bwrap makes it; the next run
// removes what dead engines left. What a live sandbox has mounted is never removed, whichever
// engine made it: its mount table says so (an engine with another home has another ledger).

/** One run's entry: the file it wrote (null without a ledger) and the paths it made. */
export interface StandInClaim {
  file: string | null;
  paths: string[];
}

interface Entry {
  pid: number;
  start: string;
  paths: string[];
}

/** When a process started (field 22 of /proc/PID/stat), so a reused pid is not taken for it. */
function startOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readEntries(ledger: string): { file: string; entry: Entry }[] {
  let names: string[];
  try {
    names = fs.readdirSync(ledger).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(ledger, name);
    try {
      const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as Entry;
      return Array.isArray(entry.paths) ? [{ file, entry }] : [];
    } catch {
      return [];
    }
  });
}

const alive = (e: Entry): boolean => startOf(e.pid) === e.start;

/** `\040` and the like in /proc/PID/mountinfo. */
const unescape = (s: string): string =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** The mount points of the other mount namespaces this user can read: the live sandboxes'. */
function mountedElsewhere(): Set<string> {
  const points = new Set<string>();
  let own: string;
  try {
    own = fs.readlinkSync('/proc/self/ns/mnt');
  } catch {
    return points;
  }
  const seen = new Set([own]);
  for (const pid of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const ns = fs.readlinkSync(`/proc/${pid}/ns/mnt`);
      if (seen.has(ns)) continue;
      seen.add(ns);
      for (const line of fs.readFileSync(`/proc/${pid}/mountinfo`, 'utf8').split('\n')) {
        const at = line.split(' ')[4];
        if (at) points.add(unescape(at));
      }
    } catch {
      // Gone meanwhile, or not this user's.
    }
  }
  return points;
}

/**
 * The paths live engines' runs made for their stand-ins, by this home's ledger: a run that finds
 * one plans its own stand-in there (guarded.ts) rather than taking it for the user's file.
 */
export function claimedStandIns(ledger: string | undefined, except: string | null = null): Set<string> {
  const claimed = new Set<string>();
  if (ledger)
    for (const { file, entry } of readEntries(ledger))
      if (file !== except && alive(entry)) for (const p of entry.paths) claimed.add(p);
  return claimed;
}

/** What must not be removed: what live engines claim, and the mount points of live sandboxes (any engine's). */
function inUse(ledger: string | undefined, except: string | null = null): Set<string> {
  const used = mountedElsewhere();
  for (const p of claimedStandIns(ledger, except)) used.add(p);
  return used;
}

function writeEntry(file: string, entry: Entry): void {
  const tmp = `${file}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Removes what engines that died mid-run left (each only while empty and used by no live
 * sandbox), and their entries; an entry with a path still in use stays for a later run.
 */
export function sweepStandIns(ledger: string | undefined): void {
  if (!ledger) return;
  const dead = readEntries(ledger).filter(({ entry }) => !alive(entry));
  if (dead.length === 0) return;
  const used = inUse(ledger);
  for (const { file, entry } of dead) {
    removeUnheld(entry.paths, (p) => used.has(p));
    const left = entry.paths.filter((p) => fs.existsSync(p) && used.has(p));
    try {
      if (left.length === 0) fs.unlinkSync(file);
      else writeEntry(file, { ...entry, paths: left });
    } catch {
      // Another engine swept it first.
    }
  }
}

/**
 * Records that this run makes `paths` (its layout's `created`), before bwrap makes them. Best
 * effort: a home this user cannot write (SKILLDECK_HOME owned by root) keeps the record in memory only.
 */
export function claimStandIns(ledger: string | undefined, paths: string[]): StandInClaim {
  holdCreated(paths);
  const start = startOf(process.pid);
  if (!ledger || paths.length === 0 || start === null) return { file: null, paths };
  const file = path.join(ledger, `${process.pid}-${crypto.randomBytes(6).toString('hex')}.json`);
  try {
    fs.mkdirSync(ledger, { recursive: true, mode: 0o700 });
    writeEntry(file, { pid: process.pid, start, paths });
    return { file, paths };
  } catch {
    return { file: null, paths };
  }
}

/**
 * The run is over: its paths no other run relies on are removed (guarded.ts). Those a sandbox
 * of another engine has mounted (one that took them for the user's files) stay listed, under
 * no live owner, for a later run to sweep.
 */
export function releaseStandIns(ledger: string | undefined, claim: StandInClaim): void {
  if (claim.paths.length === 0) {
    if (claim.file) fs.rmSync(claim.file, { force: true });
    return;
  }
  const mounted = mountedElsewhere();
  const claimed = claimedStandIns(ledger, claim.file);
  releaseCreated(claim.paths, (p) => mounted.has(p) || claimed.has(p));
  if (!claim.file) return;
  // What a live engine claims, that engine removes; what only a sandbox mounts, nobody would.
  const left = claim.paths.filter((p) => mounted.has(p) && !claimed.has(p) && fs.existsSync(p));
  try {
    if (left.length === 0) fs.rmSync(claim.file, { force: true });
    else writeEntry(claim.file, { pid: 0, start: '', paths: left });
  } catch {
    // The home went away: nothing more to record.
  }
}
