import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { RunResult } from '../../shared/contract';
import { describeUnmet, unmetRequirements } from '../engine/skills/readiness';
import { readSkillFile } from '../engine/skills/files';
import { loadMetadata } from '../engine/repair/snapshot';

/**
 * A plain stand-in for the executor (issue 7 is not on this branch): runs a skill the way
 * DESIGN §4 says — prerequisites checked first, the entrypoint run by its interpreter with
 * `SKILL_NAME`, `SKILL_PATH`, `INPUT_JSON`, `TIMEOUT`, cwd a work folder — with no sandbox.
 * An `instruction` skill is run by a scripted agent that reads every `references/…` file
 * SKILL.md points at through `readSkillFile`, the way a model using `read_skill_file` would.
 */
export interface ScriptRun {
  task: string;
  input?: Record<string, unknown>;
  /** The run's working folder (data files live here). */
  cwd: string;
  timeoutMs?: number;
  runId?: string;
}

const INTERPRETERS: Record<string, string> = {
  '.py': 'python3',
  '.sh': 'bash',
  '.js': 'node',
  '.mjs': 'node',
};

function result(skillDir: string, name: string, partial: Partial<RunResult>): RunResult {
  return {
    run_id: 'run-test',
    skill: name,
    skill_id: skillDir,
    status: 'failure',
    output: '',
    error: null,
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
    ...partial,
  };
}

/** Runs the skill at `skillDir` once and describes the outcome as the executor would. */
export async function runSkill(skillDir: string, run: ScriptRun): Promise<RunResult> {
  const started = Date.now();
  const metadata = await loadMetadata(skillDir);
  const base = (p: Partial<RunResult>) =>
    result(skillDir, metadata.name, {
      run_id: run.runId ?? 'run-test',
      duration_ms: Date.now() - started,
      ...p,
    });
  const unmet = describeUnmet(unmetRequirements(metadata));
  if (unmet.length > 0)
    return base({ error: `${metadata.name} is unavailable: ${unmet.join('; ')}.`, timeline: [] });
  if (metadata.type === 'instruction') return scriptedAgent(skillDir, base);

  const entry =
    metadata.entrypoints[0]?.path ??
    fs
      .readdirSync(path.join(skillDir, 'scripts'))
      .sort()
      .map((f) => `scripts/${f}`)[0];
  const script = path.join(skillDir, entry);
  const command = [INTERPRETERS[path.extname(script)] ?? script, script];
  const input = { task: run.task, ...run.input };
  const r = await execa(command[0], command.slice(1), {
    cwd: run.cwd,
    reject: false,
    extendEnv: false,
    timeout: run.timeoutMs ?? 20_000,
    env: {
      PATH: process.env.PATH,
      SKILL_NAME: metadata.name,
      SKILL_PATH: skillDir,
      INPUT_JSON: JSON.stringify(input),
      TIMEOUT: String(Math.round((run.timeoutMs ?? 20_000) / 1000)),
    },
  });
  const stderr = String(r.stderr ?? '');
  const lastLine = stderr.trim().split('\n').pop() ?? '';
  const status: RunResult['status'] = r.timedOut ? 'timeout' : r.exitCode === 0 ? 'success' : 'failure';
  return base({
    status,
    output: String(r.stdout ?? ''),
    stderr,
    exit_code: r.exitCode ?? null,
    command,
    cwd: run.cwd,
    error:
      status === 'success'
        ? null
        : status === 'timeout'
          ? `timed out after ${run.timeoutMs ?? 20_000} ms`
          : `exit ${r.exitCode}: ${lastLine}`,
  });
}

async function scriptedAgent(
  skillDir: string,
  base: (p: Partial<RunResult>) => RunResult,
): Promise<RunResult> {
  const doc = fs.readFileSync(path.join(skillDir, 'SKILL.md'), 'utf8');
  const refs = [...new Set([...doc.matchAll(/references\/[\w.\-/]*[\w-]/g)].map((m) => m[0]))];
  const read: string[] = [];
  for (const ref of refs) {
    try {
      read.push((await readSkillFile(skillDir, ref)).content.trim());
    } catch (e) {
      return base({
        output: 'Drafted the answer from the task; the style step is still missing.',
        error: `read_skill_file("${ref}") failed: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }
  return base({ status: 'success', output: `Answer written following: ${read.join(' | ')}` });
}

/** The injected `replay` for a run: the same task and input against another skill folder. */
export const replayWith = (run: ScriptRun) => (scratchSkillDir: string) => runSkill(scratchSkillDir, run);
