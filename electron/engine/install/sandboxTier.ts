import type { SandboxTier } from '../../../shared/contract';
import { probeSandbox } from '../execution/sandbox/probe';

/**
 * The strongest sandbox this machine gives a skill (DESIGN §4), for the install preview.
 * The probe itself lives with the sandbox backends (execution/sandbox/probe.ts) so both
 * agree on the flags; it runs once per process.
 */
export function detectSandboxTier(): SandboxTier {
  return probeSandbox().tier;
}
