import os from 'node:os';
import { widenable, type RunStatus, type Violation } from '../../../shared/contract';
import { inOrderOnALine } from './sandbox/limits';
import type { SandboxResult } from './sandbox/types';

/** How the fallback machine treats an outcome (routing spec §10). */
export type Outcome = 'success' | 'retryable' | 'fatal';

export interface Classified {
  status: RunStatus;
  outcome: Outcome;
  /** What went wrong, in words that say what to do next; null on success. */
  error: string | null;
}

/** Failures that a second try may not hit: the network hiccupped, a service was busy. */
const TRANSIENT =
  /ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|temporar(y|ily) (failure|unavailable)|\b(429|502|503|504)\b|rate.?limit|try again/i;
/** sysexits EX_TEMPFAIL: the script says "try again later". */
const EX_TEMPFAIL = 75;

const lastLines = (text: string, n = 6): string => text.trim().split('\n').slice(-n).join('\n').slice(-1500);

export function describeViolations(violations: Violation[]): string {
  const lines = violations.map((v) => v.message);
  // A write into its own folder, or one named relative to a folder the script changed to, says
  // what to do in its own message; nothing can be allowed.
  const limits = violations.filter(
    (v) => !widenable(v) && v.kind !== 'own_folder' && v.kind !== 'write' && v.kind !== 'read',
  );
  const advice = violations.some(widenable)
    ? ' Allow it for this skill only if you expect the skill to need it.'
    : limits.length > 0
      ? ' These limits hold for every run; a skill that needs more should do its work in smaller parts.'
      : '';
  return `Blocked by the sandbox: ${lines.join('; ')}.${advice}`;
}

/** `command not found`, or `No such file or directory` with an exec or spawn after it on its line. */
function missingProgram(stderr: string): boolean {
  return (
    /command not found/i.test(stderr) || inOrderOnALine(stderr, /No such file or directory/i, /exec|spawn/i)
  );
}

/**
 * A finished command → run status, fallback outcome and a plain error. Sandbox denials
 * are `blocked` and fatal (never retried, never sent to repair, DESIGN §4); a timeout is
 * fatal (a second try costs the same wait); a transient failure is retried once.
 */
/** A duration as a person reads it: "0.5 s" under a second (a 0.5 s timeout is no "1 s"), else whole seconds. */
export const secondsText = (ms: number): string =>
  `${ms < 950 ? (Math.max(ms, 100) / 1000).toFixed(1) : Math.round(ms / 1000)} s`;

export function classifyRun(r: SandboxResult): Classified {
  if (r.setupError)
    return { status: 'failure', outcome: 'fatal', error: `The sandbox could not start: ${r.setupError}` };
  if (r.cancelled) return { status: 'cancelled', outcome: 'fatal', error: 'Stopped by the user.' };
  // A script that caught the sandbox's refusal and still finished is a success; the
  // violations stay on the result for the window to show.
  if (r.violations.length > 0 && r.exitCode !== 0 && !r.timedOut)
    return { status: 'blocked', outcome: 'fatal', error: describeViolations(r.violations) };
  if (r.timedOut)
    return {
      status: 'timeout',
      outcome: 'fatal',
      error: `Timed out after ${secondsText(r.durationMs)}; the whole process tree was stopped. Raise execution_policy.timeout if the task needs longer.`,
    };
  if (r.truncated)
    return {
      status: 'failure',
      outcome: 'fatal',
      error:
        'The output passed the size cap, so the run was stopped; ask for less output or write it to ./out.',
    };
  if (r.exitCode === 0) return { status: 'success', outcome: 'success', error: null };
  const tail = lastLines(r.stderr) || lastLines(r.stdout);
  if (r.exitCode === 127 || missingProgram(r.stderr))
    return {
      status: 'failure',
      outcome: 'fatal',
      error: `A program the skill needs is missing (exit ${r.exitCode ?? '?'}): ${tail}`,
    };
  const transient =
    r.exitCode === EX_TEMPFAIL || (r.exitCode === null && r.signal !== null) || TRANSIENT.test(r.stderr);
  const how = r.exitCode === null ? `killed by ${r.signal ?? 'a signal'}` : exitWords(r.exitCode);
  return {
    status: 'failure',
    outcome: transient ? 'retryable' : 'fatal',
    error: `${how}: ${tail || '(no output)'}`,
  };
}

/**
 * bwrap, like a shell, reports a command killed by signal N as exit 128 + N, so a run under bwrap
 * never sees the signal itself: probing `skilldeck run`, a script killed by SIGKILL (the OOM
 * killer's signal) said only "exit 137", and the process tier "killed by SIGKILL" for the same.
 */
function exitWords(code: number): string {
  const signal =
    code > 128 ? Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return signal ? `exit ${code}, as a process killed by ${signal} exits` : `exit ${code}`;
}
