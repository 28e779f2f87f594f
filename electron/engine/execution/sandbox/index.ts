import { createBwrapBackend, type BwrapOptions } from './bwrap';
import { createProcessBackend } from './process';
import { probeSandbox, type SandboxProbe } from './probe';
import { createSeatbeltBackend } from './seatbelt';
import type { SandboxBackend } from './types';

export type { SandboxBackend, SandboxGrants, SandboxResult, SandboxSpec } from './types';
export { createBwrapBackend, type BwrapOptions } from './bwrap';
export { BRIDGE_PORT } from './bwrapArgs';
export { createProcessBackend, PROCESS_UNENFORCED } from './process';
export { createSeatbeltBackend } from './seatbelt';
export { buildSeatbeltProfile } from './seatbeltProfile';
export { probeSandbox, which, type SandboxProbe } from './probe';
export { resolveInterpreter, type InterpreterResolution } from './interpreter';
export { findViolations } from './violations';
export { startAllowListProxy } from './proxy';
export { hostAllowed, type ResolveHost } from './hosts';

/** What a skill's policy asks for (DESIGN §4 `execution_policy.sandbox`). */
export type RequestedSandbox = 'none' | 'process' | 'os';

export interface SelectedBackend {
  backend: SandboxBackend;
  /** Set when `os` was asked for and only process isolation is available: why, for the user (never silent). */
  downgrade: string | null;
}

export interface SelectOptions extends BwrapOptions {
  /** The probe result; probeSandbox() when omitted (tests force a tier). */
  probe?: SandboxProbe;
}

/**
 * The backend that will actually run a command: `none` and `process` run with process
 * isolation (labelled as asked); `os` runs under bwrap or sandbox-exec where the probe
 * found them, else with process isolation and a `downgrade` reason the caller must show
 * before the run.
 */
export function selectBackend(requested: RequestedSandbox, opts: SelectOptions = {}): SelectedBackend {
  if (requested === 'none') return { backend: createProcessBackend({ tier: 'none' }), downgrade: null };
  if (requested === 'process') return { backend: createProcessBackend({ tier: 'process' }), downgrade: null };
  const probe = opts.probe ?? probeSandbox();
  if (probe.tier === 'bwrap' && probe.bwrap) {
    const backend = createBwrapBackend({
      ...opts,
      bwrap: probe.bwrap,
      socat: opts.socat !== undefined ? opts.socat : probe.socat,
      disableUserns: probe.disableUserns,
    });
    return { backend, downgrade: null };
  }
  if (probe.tier === 'seatbelt' && probe.sandboxExec) {
    const backend = createSeatbeltBackend({
      home: opts.home,
      // A file's path is a subpath of itself: the credential files hide like the folders.
      hide: [...(opts.hide ?? []), ...(opts.hideFiles ?? [])],
      sandboxExec: probe.sandboxExec,
      resolveHost: opts.resolveHost,
    });
    return { backend, downgrade: null };
  }
  return {
    backend: createProcessBackend({ tier: 'process' }),
    downgrade: `no OS sandbox here (${probe.reason ?? 'unavailable'}): only process isolation`,
  };
}
