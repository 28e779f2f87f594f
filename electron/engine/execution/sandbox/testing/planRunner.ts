import { createBwrapBackend } from '../bwrap';
import { resolveInterpreter } from '../interpreter';
import { createProcessBackend } from '../process';
import type { ResourceLimits } from '../limits';
import type { SandboxGrants, SandboxResult } from '../types';

/**
 * One probe run as an executor would build it: interpreter resolved on the host, its
 * prefix added to the read grants, then the backend. Plain data, so the same plan runs
 * in the test process (root) and in the bundled driver under a throwaway user.
 */
export interface ProbePlan {
  id: string;
  backend: 'bwrap' | 'process';
  script: string;
  args?: string[];
  cwd: string;
  skillDir: string;
  /** The engine user's home as the sandbox should mask it (a fake one in tests). */
  home: string;
  grants: SandboxGrants;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Host name → where the allow-list proxy really connects (a local test server). */
  hostMap?: Record<string, { host: string; port: number }>;
  /** Abort after this many ms (Stop). */
  cancelAfterMs?: number;
  /** Credential files of the home to keep unreadable (scriptAttempt passes policy.ts's list). */
  hideFiles?: string[];
  /** File-size and process limits (the backend's defaults when absent). */
  limits?: ResourceLimits;
}

export interface ProbeOutcome {
  id: string;
  result: SandboxResult | null;
  /** Interpreter resolution failed. */
  error?: string;
  /** Output chunks seen through onOutput. */
  streamed: number;
  uid: number;
}

/** Runs one plan; never throws. */
export async function runPlan(plan: ProbePlan): Promise<ProbeOutcome> {
  const uid = process.getuid?.() ?? -1;
  const interp = resolveInterpreter(plan.script);
  if (!interp.ok) return { id: plan.id, result: null, error: interp.error, streamed: 0, uid };
  const hostMap = plan.hostMap ?? {};
  const backend =
    plan.backend === 'process'
      ? createProcessBackend()
      : createBwrapBackend({
          home: plan.home,
          hideFiles: plan.hideFiles,
          resolveHost: (host, port) => hostMap[host] ?? { host, port },
        });
  const controller = new AbortController();
  const timer = plan.cancelAfterMs ? setTimeout(() => controller.abort(), plan.cancelAfterMs) : undefined;
  let streamed = 0;
  const result = await backend.run({
    command: interp.command,
    args: [...interp.args, ...(plan.args ?? [])],
    cwd: plan.cwd,
    skillDir: plan.skillDir,
    grants: {
      ...plan.grants,
      read: [...plan.grants.read, ...interp.readPrefixes],
      env: { ...plan.grants.env, ...interp.env },
    },
    timeoutMs: plan.timeoutMs,
    maxOutputBytes: plan.maxOutputBytes,
    ...(plan.limits ? { limits: plan.limits } : {}),
    signal: controller.signal,
    onOutput: () => {
      streamed++;
    },
  });
  clearTimeout(timer);
  return { id: plan.id, result, streamed, uid };
}

/** Runs plans a few at a time (2 shared cores). */
export async function runPlans(plans: ProbePlan[], concurrency = 3): Promise<ProbeOutcome[]> {
  const out: ProbeOutcome[] = new Array(plans.length);
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const i = next++;
      out[i] = await runPlan(plans[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, plans.length) }, worker));
  return out;
}
