import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { SandboxTier } from '../../../shared/contract';
import { onPath } from '../skills/readiness';

let cached: SandboxTier | undefined;

/**
 * The strongest sandbox this machine gives a skill (DESIGN §4): bubblewrap when it is on
 * PATH and user namespaces work, sandbox-exec on macOS, otherwise process isolation only.
 * Probed once per process (a bwrap run costs a few ms).
 */
export function detectSandboxTier(): SandboxTier {
  if (cached) return cached;
  cached = probe();
  return cached;
}

function probe(): SandboxTier {
  if (process.platform === 'darwin') return fs.existsSync('/usr/bin/sandbox-exec') ? 'seatbelt' : 'process';
  if (process.platform !== 'linux' || !onPath('bwrap')) return 'process';
  const run = spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', '--', 'true'], {
    stdio: 'ignore',
    timeout: 5000,
  });
  return run.status === 0 ? 'bwrap' : 'process';
}
