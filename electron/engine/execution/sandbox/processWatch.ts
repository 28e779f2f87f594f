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
 * /proc, which lists exactly them. 0 until the namespace exists and after it is gone.
 */
export function sandboxProcessCounter(bwrapPid: number): () => number {
  let procDir: string | null = null;
  return () => {
    try {
      if (!procDir) {
        const init = fs
          .readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, 'utf8')
          .trim()
          .split(/\s+/)[0];
        if (!init || !isPid(init)) return 0;
        // Until bwrap's pivot_root its root, and so that /proc, is the host's: every process
        // of the machine. Not counted (nor remembered) before the root is its own.
        const root = fs.statSync(`/proc/${init}/root`);
        const host = fs.statSync('/');
        if (root.dev === host.dev && root.ino === host.ino) return 0;
        procDir = `/proc/${init}/root/proc`;
      }
      return fs.readdirSync(procDir).filter(isPid).length;
    } catch {
      return 0;
    }
  };
}
