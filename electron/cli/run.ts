import type { RunResult } from '../../shared/contract';
import { homeWriteProblem, resolveHome } from '../engine';
import { answerApprovals, type ApprovalMode } from './approve';
import {
  findSkill,
  onStopSignal,
  openEngine,
  refuse,
  unstartedRun,
  withSkillFolder,
  type DiscoveryFlags,
} from './context';
import { forTerminal, oneLine } from './terminal';

export interface RunFlags extends DiscoveryFlags {
  json: boolean;
  approve: boolean;
  deny: boolean;
  entry?: string;
  input?: string;
}

const USAGE =
  'usage: skilldeck run SKILL "TASK" [--skills DIR]… [--no-default-paths] [--approve|--deny] [--entry NAME] [--input JSON] [--json]\n';

function parseInput(text: string | undefined): Record<string, unknown> | string | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  return `--input must be a JSON object, e.g. --input '{"path": "data.csv"}'`;
}

function printSummary(r: RunResult): void {
  const mark = r.status === 'success' ? '✓' : '✗';
  const files = r.files.length
    ? `\nfiles:\n${r.files.map((f) => `  ${oneLine(f.abs)} (${f.size} B)`).join('\n')}`
    : '';
  const error = r.error ? `\n${forTerminal(r.error)}` : '';
  // A blocked run's error lists them already; any other run went on without what was refused.
  const refused =
    r.status !== 'blocked' && r.violations.length > 0
      ? `\nblocked by the sandbox, and the run went on without it:\n${r.violations.map((v) => `  ${oneLine(v.message)}`).join('\n')}`
      : '';
  process.stderr.write(
    `\n${mark} ${r.skill} ${r.status} · sandbox ${r.sandbox} · ${Math.round(r.duration_ms)} ms${r.exit_code !== null ? ` · exit ${r.exit_code}` : ''}${error}${refused}${files}\n`,
  );
}

/**
 * `run SKILL "TASK"`: one run through the executor (DESIGN §7). Output streams as it comes
 * (or one JSON document with `--json`); exit 0 on success, 1 otherwise, 2 on usage errors.
 */
export async function runCommand(skill: string | undefined, task: string, flags: RunFlags): Promise<number> {
  if (!skill) return refuse(`Name the skill to run.\n${USAGE}`, flags.json, unstartedRun);
  if (flags.approve && flags.deny)
    return refuse(`--approve and --deny exclude each other.\n${USAGE}`, flags.json, unstartedRun);
  const input = parseInput(flags.input);
  if (typeof input === 'string') return refuse(input, flags.json, unstartedRun);
  const unwritable = homeWriteProblem(resolveHome());
  if (unwritable) {
    process.stderr.write(`skilldeck: ${unwritable}\n`);
    if (flags.json) process.stdout.write(`${JSON.stringify(unstartedRun(unwritable))}\n`);
    return 1;
  }
  const engine = await openEngine(withSkillFolder(flags, skill));
  try {
    const match = findSkill(engine, skill);
    if (!match)
      return refuse(
        `No skill named "${skill}"; \`skilldeck skills list\` shows what was found.`,
        flags.json,
        unstartedRun,
      );
    const mode: ApprovalMode = flags.approve ? 'approve' : flags.deny ? 'deny' : 'ask';
    const stopAnswering = answerApprovals(engine, mode, flags.json);
    const stopStreaming = flags.json
      ? () => undefined
      : engine.events.subscribe((name, payload) => {
          if (name !== 'run.output') return;
          const { stream, chunk } = payload as { stream: 'stdout' | 'stderr'; chunk: string };
          (stream === 'stdout' ? process.stdout : process.stderr).write(forTerminal(chunk));
        });
    // Listening before the run starts: starting writes its "running" record, and a Ctrl-C that
    // came while no handler was installed killed the process outright (no JSON, the record left
    // "running"). The handler runs on the event loop, so after start() has returned.
    let runId = '';
    const stopSignal = onStopSignal(() => engine.execution.cancel(runId));
    let result: RunResult;
    try {
      const started = engine.execution.start({
        id: match.id,
        task,
        ...(flags.entry ? { entrypoint: flags.entry } : {}),
        ...(input ? { input } : {}),
      });
      runId = started.run_id;
      result = await started.done;
    } finally {
      stopSignal.off();
    }
    stopAnswering();
    stopStreaming();
    if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      // Direct skills and instruction answers do not stream: print them whole.
      if (result.command.length === 0 && result.output)
        process.stdout.write(`${forTerminal(result.output)}\n`);
      printSummary(result);
    }
    // As repair and chat: the stopped run is printed, and the exit says a signal stopped it.
    const signalled = stopSignal.status();
    if (signalled) return signalled;
    return result.status === 'success' ? 0 : 1;
  } finally {
    await engine.close();
  }
}
