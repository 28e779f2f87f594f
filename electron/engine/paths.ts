import os from 'node:os';
import path from 'node:path';

/** `$SKILLDECK_HOME`, else `~/.skilldeck` (DESIGN §6; Electron passes its userData instead). */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SKILLDECK_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), '.skilldeck');
}
