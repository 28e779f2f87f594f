import fs from 'node:fs';

/**
 * The kernel never applies RLIMIT_NPROC to root (limits.ts), so a root run could fork until
 * the machine has no pids left. For such runs the engine counts the processes of the
 * sandbox's PID namespace itself, this often, and stops the run past its limit.
 */
export const WATCH_MS = 20;

const isPid = (name: string) => /^\d+$/.test(name);

/**
 * Where the PID namespace bwrap (`bwrapPid`, outside) made has its own /proc: its first child
 * is the namespace's init, and that init's root holds the namespace's /proc, which lists
 * exactly its processes. null until that /proc exists (found once) and after it is gone.
 */
function namespaceProc(bwrapPid: number): () => string | null {
  let procDir: string | null = null;
  return () => {
    if (procDir) return procDir;
    try {
      // Stryker disable next-line MethodExpression: the kernel writes "pid pid … " with no leading blank, so the first field is the same untrimmed
      const init = fs
        .readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, 'utf8')
        .trim()
        .split(/\s+/)[0];
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the check only spares a lookup, "" or a non-pid names no /proc/…/root/proc and the catch returns null all the same (this also ignores `true`, which the tests kill)
      if (!init || !isPid(init)) return null;
      // Until bwrap mounts the namespace's own proc and pivots into it, the child's /proc is
      // the host's (the same proc instance, so the same device): every process of the
      // machine. Not used, nor remembered, before it is a proc of its own.
      const dir = `/proc/${init}/root/proc`;
      if (fs.statSync(dir).dev === fs.statSync('/proc').dev) return null;
      procDir = dir;
      return dir;
    } catch {
      return null;
    }
  };
}

/** A counter of the processes in the PID namespace bwrap (`bwrapPid`, outside) made; 0 while it has no /proc of its own. */
export function sandboxProcessCounter(bwrapPid: number): () => number {
  const proc = namespaceProc(bwrapPid);
  return () => {
    const dir = proc();
    try {
      return dir ? fs.readdirSync(dir).filter(isPid).length : 0;
    } catch {
      return 0;
    }
  };
}

/**
 * How often the memory a run holds is added up (memoryHeld): each reading reads every process's
 * status, and an allocation that outruns it by a poll still meets each process's RLIMIT_DATA.
 */
export const MEMORY_WATCH_MS = 100;

/**
 * The memory a process holds that no file backs, from its /proc status: RssAnon (what malloc,
 * Python and V8 allocate) plus RssShmem (a memfd or /dev/shm mapping, which RLIMIT_DATA does
 * not count). Shared libraries are file-backed and not counted. Bytes.
 */
export function memoryHeld(status: string): number {
  let kib = 0;
  for (const m of status.matchAll(/^Rss(?:Anon|Shmem):\s+(\d+) kB/gm)) kib += Number(m[1]);
  return kib * 1024;
}

/**
 * The memfds a process holds open, by inode, with the memory each holds: one written through its
 * descriptor and never mapped is in no process's RSS, yet holds its pages all the same. A mapped
 * one counts twice (also in RssShmem): over, never under.
 */
function memfdsHeld(fdDir: string, seen: Map<number, number>): void {
  let fds: string[];
  try {
    fds = fs.readdirSync(fdDir);
  } catch {
    return;
  }
  for (const fd of fds) {
    try {
      if (!fs.readlinkSync(`${fdDir}/${fd}`).startsWith('/memfd:')) continue;
      const st = fs.statSync(`${fdDir}/${fd}`);
      seen.set(st.ino, st.blocks * 512);
    } catch {
      // Closed meanwhile.
    }
  }
}

function sumHeld(dir: string, pids: string[]): number {
  let bytes = 0;
  const memfds = new Map<number, number>();
  for (const pid of pids) {
    try {
      bytes += memoryHeld(fs.readFileSync(`${dir}/${pid}/status`, 'utf8'));
      memfdsHeld(`${dir}/${pid}/fd`, memfds);
    } catch {
      // Gone between the listing and the read.
    }
  }
  for (const held of memfds.values()) bytes += held;
  return bytes;
}

/**
 * A meter of the memory the processes of bwrap's PID namespace hold in all (memoryHeld): RLIMIT_DATA
 * caps each process, so a run of many processes, or one that keeps its memory in a memfd, could
 * otherwise take the machine's. 0 while the namespace has no /proc of its own.
 */
export function sandboxMemoryMeter(bwrapPid: number): () => number {
  const proc = namespaceProc(bwrapPid);
  return () => {
    const dir = proc();
    try {
      return dir ? sumHeld(dir, fs.readdirSync(dir).filter(isPid)) : 0;
    } catch {
      return 0;
    }
  };
}

/** The process group id in a `/proc/<pid>/stat` line (its fifth field, after the command in parentheses). */
export function groupOfStat(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const pgrp = Number(fields[2]);
  return Number.isInteger(pgrp) ? pgrp : null;
}

/**
 * How often the process group is counted: each count reads every process's stat (about 1 ms
 * per 60 processes here), so less often than a namespace's own /proc.
 */
export const GROUP_WATCH_MS = 50;

/**
 * A counter of the processes in the group `pgid` leads (the `process` tier starts each run as
 * its own group): without a PID namespace to look into, every process's stat is read. Linux
 * only; 0 where /proc cannot be read.
 */
export function processGroupCounter(pgid: number): () => number {
  return () => {
    let count = 0;
    let entries: string[];
    try {
      entries = fs.readdirSync('/proc');
    } catch {
      return 0;
    }
    for (const entry of entries) {
      // Stryker disable next-line ConditionalExpression: only spares reads; a name that is no pid has no stat, or is this process ("self"), never in the run's group
      if (!isPid(entry)) continue;
      try {
        if (groupOfStat(fs.readFileSync(`/proc/${entry}/stat`, 'utf8')) === pgid) count++;
      } catch {
        // Gone between the listing and the read.
      }
    }
    return count;
  };
}

/** A meter of the memory the processes of the group `pgid` leads hold in all (the `process` tier). */
export function processGroupMemoryMeter(pgid: number): () => number {
  return () => {
    let entries: string[];
    try {
      entries = fs.readdirSync('/proc');
    } catch {
      return 0;
    }
    const members = entries.filter((entry) => {
      if (!isPid(entry)) return false;
      try {
        return groupOfStat(fs.readFileSync(`/proc/${entry}/stat`, 'utf8')) === pgid;
      } catch {
        return false;
      }
    });
    return sumHeld('/proc', members);
  };
}
