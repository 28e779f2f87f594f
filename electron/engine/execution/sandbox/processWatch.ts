import fs from 'node:fs';

/**
 * The kernel never applies RLIMIT_NPROC to root (limits.ts), so a root run could fork until
 * the machine has no pids left. For such runs the engine counts the processes of the
 * sandbox's PID namespace itself, this often, and stops the run past its limit.
 */
export const WATCH_MS = 20;

const isPid = (name: string) => /^\d+$/.test(name);

/**
 * A counter of the processes in the PID namespace bwrap (`bwrapPid`, outside) made: its
 * first child is the namespace's init, and that init's root holds the namespace's own
 * /proc, which lists exactly them. 0 until that /proc exists and after it is gone.
 */
export function sandboxProcessCounter(bwrapPid: number): () => number {
  let procDir: string | null = null;
  return () => {
    try {
      if (!procDir) {
        // Stryker disable next-line MethodExpression: the kernel writes "pid pid … " with no leading blank, so the first field is the same untrimmed
        const init = fs
          .readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, 'utf8')
          .trim()
          .split(/\s+/)[0];
        // Stryker disable next-line ConditionalExpression,LogicalOperator: the check only spares a lookup, "" or a non-pid names no /proc/…/root/proc and the catch returns 0 all the same (this also ignores `true`, which the tests kill)
        if (!init || !isPid(init)) return 0;
        // Until bwrap mounts the namespace's own proc and pivots into it, the child's /proc is
        // the host's (the same proc instance, so the same device): every process of the
        // machine. Not counted, nor remembered, before it is a proc of its own.
        const dir = `/proc/${init}/root/proc`;
        if (fs.statSync(dir).dev === fs.statSync('/proc').dev) return 0;
        procDir = dir;
      }
      return fs.readdirSync(procDir).filter(isPid).length;
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
