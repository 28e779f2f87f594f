import type { RepairProposal, RepairRevision, RunResult } from '../../shared/contract';
import { repairReport } from '../engine/repair';
import { answerApprovals } from './approve';
import {
  findSkill,
  onStopSignal,
  openEngine,
  refuse,
  unstartedRun,
  withSkillFolder,
  type DiscoveryFlags,
} from './context';
import { forTerminal } from './terminal';

export interface RepairFlags extends DiscoveryFlags {
  json: boolean;
  apply: boolean;
  deny: boolean;
  entry?: string;
  input?: string;
}

const USAGE =
  'usage: skilldeck repair SKILL "TASK" [--skills DIR]… [--no-default-paths] [--apply] [--deny] [--entry NAME] [--input JSON] [--json]\n       skilldeck repair SKILL --undo [REVISION] [--json]\n';

const NOTHING_PROVEN = 'Not applied: no proposal passed its replay.';

/** The proposal to apply: the first whose replay passed, else none (never apply an unproven patch). */
const proven = (proposals: RepairProposal[]) => proposals.find((p) => p.replay.verdict === 'passes');

function printProposal(p: RepairProposal): void {
  process.stdout.write(
    forTerminal(
      [
        `── proposal (${p.source}) · ${p.patched_files.join(', ')}`,
        `   error:    ${p.error_signature}`,
        `   cause:    ${p.root_cause}`,
        `   expected: ${p.expected_effect}`,
        `   replay:   ${p.replay.verdict}${p.replay.error ? ` — ${p.replay.error.split('\n')[0]}` : ''}`,
        p.diff,
        '',
      ].join('\n'),
    ),
  );
}

const pickRun = ({ status, output, error, sandbox, duration_ms }: RunResult) => ({
  status,
  output,
  error,
  sandbox,
  duration_ms,
});

/** The DESIGN §7 repair shape when there was nothing to run: not eligible, the run never started. */
const notRepairable = (reason: string) => ({ eligible: false, reason, run: unstartedRun(reason) });

/**
 * `repair SKILL "TASK"` (DESIGN §7): run the task; on an eligible failure, propose patches,
 * replay each against a patched scratch copy, and print them. Invoking repair is the consent
 * to run this task (its replays too) inside the skill's declared permissions and sandbox;
 * `--deny` refuses instead. Without `--apply` nothing in the skill changes; with it, the
 * first proposal whose replay passed is applied (a revision that `repair SKILL --undo` reverts) and
 * the task is run again. Exit 0 when there is a proposal to review (with `--apply`: applied,
 * and the task then succeeded) or the run succeeded and needs none; 1 otherwise.
 */
export async function repairCommand(
  skill: string | undefined,
  task: string,
  flags: RepairFlags,
): Promise<number> {
  if (!skill) {
    process.stderr.write(USAGE);
    return 2;
  }
  let input: Record<string, unknown> | undefined;
  if (flags.input !== undefined) {
    try {
      const value: unknown = JSON.parse(flags.input);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      input = value as Record<string, unknown>;
    } catch {
      return refuse(`--input must be a JSON object.\n${USAGE}`, flags.json, notRepairable);
    }
  }
  const engine = await openEngine(withSkillFolder(flags, skill));
  try {
    const match = findSkill(engine, skill);
    if (!match)
      return refuse(
        `No skill named "${skill}"; \`skilldeck skills list\` shows what was found.`,
        flags.json,
        notRepairable,
      );
    const stop = answerApprovals(engine, flags.deny ? 'deny' : 'approve', true);
    // Ctrl-C (or SIGTERM) stops the run, model call or replay under way and still prints what there is (what
    // was proposed, what was applied), so a caller reading --json gets a record; a second one quits.
    const interrupted = new AbortController();
    const stopSignal = onStopSignal(() => {
      interrupted.abort();
      for (const r of engine.execution.list(50))
        if (r.status === 'running') engine.execution.cancel(r.run_id);
    });
    const run: RunResult = await engine.execution.start({
      id: match.id,
      task,
      ...(flags.entry ? { entrypoint: flags.entry } : {}),
      ...(input ? { input } : {}),
    }).done;
    // A success is judged too: an instruction skill's model may have answered around a file
    // its SKILL.md names and the skill lacks, which is a broken skill all the same.
    if (interrupted.signal.aborted) {
      stopSignal.off();
      stop();
      const reason = `Stopped during the run, before any repair: nothing was proposed or changed.`;
      const report = { eligible: false, reason, run: pickRun(run), interrupted: true };
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : `${reason}\n`);
      return stopSignal.status() ?? 130;
    }
    const record = engine.execution.get(run.run_id);
    const outcome = await engine.repair.repair({
      run,
      skillDir: run.skill_id,
      task,
      input: record.input,
      replay: (dir) => engine.execution.replay(record, dir),
      signal: interrupted.signal,
    });
    let applied: RepairRevision | null = null;
    let applyError: string | undefined;
    let retry: RunResult | undefined;
    const best = proven(outcome.proposals);
    // Asked to apply and nothing proven: the JSON says so too, not only `applied: null`.
    if (flags.apply && !best && outcome.proposals.length > 0 && !interrupted.signal.aborted)
      applyError = NOTHING_PROVEN;
    if (flags.apply && best && !interrupted.signal.aborted) {
      // A refused or failed write (stale skill, unwritable home) is part of the answer: the
      // report still goes out, with the reason, and the skill is as it was (revisions.ts rolls back).
      try {
        applied = await engine.repair.apply(best.id);
      } catch (error) {
        applyError = `Not applied: ${error instanceof Error ? error.message : String(error)}`;
      }
      await engine.reloadSkills();
      // The skill the revision wrote (a managed copy of a read-only skill, say), not any of its name.
      const again = applied && !interrupted.signal.aborted ? findSkill(engine, applied.skill_id) : undefined;
      if (again)
        retry = await engine.execution.start({
          id: again.id,
          task,
          ...(flags.entry ? { entrypoint: flags.entry } : {}),
          ...(input ? { input } : {}),
        }).done;
    }
    stopSignal.off();
    stop();
    const report = {
      ...repairReport(outcome, run, applied),
      ...(applyError ? { apply_error: applyError } : {}),
      ...(retry ? { retry } : {}),
      ...(interrupted.signal.aborted ? { interrupted: true } : {}),
    };
    if (flags.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      process.stdout.write(`${forTerminal(report.reason)}\n\n`);
      outcome.proposals.forEach(printProposal);
      if (flags.apply && !best && report.eligible && !applyError) process.stdout.write(`${NOTHING_PROVEN}\n`);
      if (applyError) process.stdout.write(`${forTerminal(applyError)}\n`);
      if (applied)
        process.stdout.write(
          `Applied as revision ${applied.revision}; the task ran again: ${retry?.status}. \`skilldeck repair ${skill} --undo\` takes it back.\n`,
        );
    }
    if (interrupted.signal.aborted) return stopSignal.status() ?? 130;
    if (run.status === 'success' && !report.eligible) return 0;
    // Eligible but nothing to review (every answer unusable or refused) is no repair either.
    if (report.eligible && report.proposals.length === 0) return 1;
    return report.eligible && (!flags.apply || retry?.status === 'success') ? 0 : 1;
  } finally {
    await engine.close();
  }
}
