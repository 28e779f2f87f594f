import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Eligibility, ReplayResult, RunResult } from '../../../shared/contract';
import type { FileChange } from './diffs';
import { assessEligibility, brokenUnderModel } from './eligibility';
import { gatherEvidence } from './evidence';
import type { Expectation } from './fixers';
import { readSnapshot, type SkillSnapshot } from './snapshot';

/**
 * Re-runs the failing case against a skill folder (the executor, injected): same task, same
 * input, same entrypoint, same sandbox — only `SKILL_PATH` points at `scratchSkillDir`.
 */
export type Replay = (scratchSkillDir: string) => Promise<RunResult>;

const SKIP = new Set(['.git', 'node_modules']);

/**
 * Copies the skill into a fresh scratch folder and writes the changed files there. The copy
 * keeps the skill's folder name (the validator checks name = folder) and its file modes.
 */
export async function materialize(
  skill: SkillSnapshot,
  changes: FileChange[],
  scratchRoot = os.tmpdir(),
): Promise<string> {
  await fsp.mkdir(scratchRoot, { recursive: true });
  const parent = await fsp.mkdtemp(path.join(scratchRoot, 'skilldeck-repair-'));
  const dir = path.join(parent, path.basename(skill.dir));
  await fsp.cp(skill.dir, dir, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !SKIP.has(path.basename(src)) || src === skill.dir,
  });
  for (const c of changes) {
    const file = path.join(dir, ...c.path.split('/'));
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const mode = fs.existsSync(file) ? (await fsp.stat(file)).mode & 0o777 : 0o644;
    await fsp.writeFile(file, c.after);
    await fsp.chmod(file, mode);
  }
  return dir;
}

/** Deletes a scratch copy made by `materialize`. */
export async function removeScratch(scratchSkillDir: string): Promise<void> {
  const parent = path.dirname(scratchSkillDir);
  if (path.basename(parent).startsWith('skilldeck-repair-'))
    await fsp.rm(parent, { recursive: true, force: true });
}

/** What a replay showed, judged against the failure it was meant to fix. */
export interface Judged {
  result: ReplayResult;
  /** The replay's own eligibility (the next attempt plans from it). */
  eligibility: Eligibility | null;
}

const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * A failed replay in one line: the exception its traceback or stack ends in, when it has one.
 * The run's error is the last lines of stderr, which for Python are the middle of the
 * traceback and for Node frames in node:internal, so its start never named the error.
 */
function failureLine(run: RunResult, patched: SkillSnapshot, fallback: string): string {
  const trace = gatherEvidence(run, patched).trace;
  if (!trace) return clip(run.error ?? fallback);
  const how = run.exit_code === null ? '' : `exit ${run.exit_code}: `;
  return clip(`${how}${trace.type}${trace.message ? `: ${trace.message}` : ''}`);
}

/**
 * Routing spec §13 evaluation: passes / fails differently / same failure (by error
 * signature), and whether it improved — no more errors than before and at least as far
 * along — which decides between planning again and falling back.
 */
export function judgeReplay(
  before: Eligibility,
  run: RunResult,
  patched: SkillSnapshot,
  expect: Expectation,
): Judged {
  const base = {
    status: run.status,
    output: run.output,
    error: run.error,
    exit_code: run.exit_code,
    duration_ms: run.duration_ms,
  };
  if (run.status === 'success' && !brokenUnderModel(run, patched, gatherEvidence(run, patched))) {
    const met = expect.kind === 'pass';
    return {
      result: { ...base, verdict: 'passes', improved: true, met_expectation: met, summary: 'Now passes.' },
      eligibility: null,
    };
  }
  const after = assessEligibility(run, patched);
  const said = `${run.error ?? ''}\n${run.stderr}`;
  if (expect.kind === 'unavailable') {
    const declared = expect.names.every((n) => patched.metadata.requires.env.includes(n));
    const named = expect.names.every((n) => said.includes(n));
    if (declared && named && run.exit_code === null) {
      return {
        result: {
          ...base,
          verdict: 'fails_differently',
          improved: true,
          met_expectation: true,
          summary: `Now stops before running and says what is missing (${expect.names.join(', ')}).`,
        },
        eligibility: after,
      };
    }
  }
  const what = failureLine(run, patched, after.reason);
  if (after.error_signature === before.error_signature) {
    return {
      result: {
        ...base,
        verdict: 'same_failure',
        improved: false,
        met_expectation: false,
        summary: `Same failure: ${what}`,
      },
      eligibility: after,
    };
  }
  const improved = after.root_causes <= before.root_causes && after.progress >= before.progress;
  // Not worse lets the loop try again; "further along" is said only when it got further.
  const further = improved && (after.progress > before.progress || after.root_causes < before.root_causes);
  return {
    result: {
      ...base,
      verdict: 'fails_differently',
      improved,
      met_expectation: false,
      summary: `Fails differently${further ? ' (further along)' : ''}: ${what}`,
    },
    eligibility: after,
  };
}

/** Materializes `changes`, replays the failing case there and judges it; the scratch copy is removed. */
export async function replayChanges(args: {
  skill: SkillSnapshot;
  changes: FileChange[];
  before: Eligibility;
  expect: Expectation;
  replay: Replay;
  scratchRoot?: string;
  /** Checks to run on the scratch copy before replaying (the validator); a string refuses. */
  precheck?: (scratchDir: string) => Promise<string | null>;
}): Promise<{ refused: string } | (Judged & { run: RunResult; patched: SkillSnapshot })> {
  const dir = await materialize(args.skill, args.changes, args.scratchRoot);
  try {
    const refusal = args.precheck ? await args.precheck(dir) : null;
    if (refusal) return { refused: refusal };
    const patched = await readSnapshot(dir);
    let run: RunResult;
    try {
      run = await args.replay(dir);
    } catch (e) {
      // The executor must not throw across the boundary (STYLE), but a crash must not stop the loop.
      const message = e instanceof Error ? e.message : String(e);
      run = crashedRun(message);
    }
    return { ...judgeReplay(args.before, run, patched, args.expect), run, patched };
  } finally {
    await removeScratch(dir);
  }
}

function crashedRun(message: string): RunResult {
  return {
    run_id: 'replay',
    skill: '',
    skill_id: '',
    status: 'failure',
    output: '',
    error: `The replay could not run: ${message}`,
    sandbox: 'none',
    duration_ms: 0,
    exit_code: null,
    command: [],
    cwd: null,
    stderr: '',
    truncated: false,
    files: [],
    violations: [],
    fallback_used: false,
    timeline: [],
  };
}
