import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `$SKILLDECK_HOME`, else `~/.skilldeck` (DESIGN §6; Electron passes its userData instead). */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SKILLDECK_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), '.skilldeck');
}

/**
 * Why the engine cannot keep its runs in `home`, or null: a run's folder, record and approvals
 * live there. Probing `skilldeck run` as another user than the one owning $SKILLDECK_HOME, the
 * run failed with a stack trace (EACCES, mkdir …/runs/…).
 */
export function homeWriteProblem(home: string): string | null {
  try {
    fs.mkdirSync(home, { recursive: true });
    fs.accessSync(home, fs.constants.W_OK | fs.constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'a read-only file system'
          : (error as Error).message;
    return `SkillDeck cannot write its data folder ${home} (${why}); it keeps each run's folder and record there. Set SKILLDECK_HOME to a folder you can write, or give this user that one.`;
  }
}
