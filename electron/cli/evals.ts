import type { EvalEdit, EvalReport } from '../../shared/contract';
import type { Engine } from '../engine';
import { refuse, withSkill, type DiscoveryFlags } from './context';
import { pad } from './route';

const pct = (x: number | null) => (x === null ? '—' : `${Math.round(x * 100)}%`);

/** One `--should-trigger` / `--should-not-trigger` / `--remove` flag, in command-line order. */
export interface EvalCaseFlag {
  flag: 'should-trigger' | 'should-not-trigger' | 'remove';
  query: string;
}

/** What one flag did, as `--json` reports it beside the run of the evals. */
interface Change {
  query: string;
  should_trigger?: boolean;
  change: EvalEdit['change'];
}

function printEval(report: EvalReport): void {
  const out = [`Trigger evals for ${report.name} (${report.file})`, ''];
  for (const c of report.cases) {
    const expected = c.should_trigger ? 'should trigger' : 'should not';
    const got = c.triggered ? 'triggered' : `${c.status}${c.primary ? ` → ${c.primary}` : ''}`;
    out.push(
      `  ${c.pass ? '✓' : '✗'} ${pad(expected, 15)} ${pad(got, 28)} ${c.score.toFixed(2)}  ${c.query.replace(/\s+/g, ' ')}`,
    );
  }
  out.push(
    '',
    `${report.passed}/${report.cases.length} passed · precision ${pct(report.precision)} · recall ${pct(report.recall)}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

/** "added to FILE: should trigger "Q"", one line per stored case. */
function describeChange({ query, should_trigger, change }: Change, file: string | null): string {
  const quoted = JSON.stringify(query);
  const expected = should_trigger ? 'should trigger' : 'should not trigger';
  if (change === 'added') return `added to ${file}: ${expected} ${quoted}`;
  if (change === 'updated') return `updated in ${file}: now ${expected} ${quoted}`;
  if (change === 'unchanged') return `unchanged: ${file} already says ${expected} ${quoted}`;
  return `removed from ${file}: ${quoted}`;
}

/** Stores the flags' cases one by one (each write is atomic); the first failure stops the rest. */
function storeCases(engine: Engine, id: string, cases: EvalCaseFlag[]): Change[] {
  const changes: Change[] = [];
  for (const { flag, query } of cases) {
    if (flag === 'remove') {
      changes.push({ query, change: engine.routing.removeEval(id, query).change });
      continue;
    }
    const shouldTrigger = flag === 'should-trigger';
    const { change } = engine.routing.saveEval(id, query, shouldTrigger);
    changes.push({ query, should_trigger: shouldTrigger, change });
  }
  return changes;
}

/**
 * `eval SKILL`: the skill's evals/trigger_evals.json through the router, after storing the
 * cases the flags name (what-users-ask §15). Exit 0 when every case passes, 1 when one fails,
 * the skill has no trigger evals or a case could not be stored, 2 on usage errors.
 */
export async function evalCommand(
  skill: string | undefined,
  flags: DiscoveryFlags & { json: boolean; cases: EvalCaseFlag[] },
): Promise<number> {
  if (!skill)
    return refuse(
      'usage: skilldeck eval SKILL [--should-trigger Q]… [--should-not-trigger Q]… [--remove Q]… [--skills DIR]… [--no-default-paths] [--json]',
      flags.json,
    );
  const blank = flags.cases.find((c) => !c.query.trim());
  if (blank) return refuse(`--${blank.flag}: the query is empty; give what a user would say.`, flags.json);
  return withSkill(flags, skill, async (engine, match) => {
    let changes: Change[];
    let report: EvalReport;
    try {
      changes = storeCases(engine, match.id, flags.cases);
      report = engine.routing.runEvals(match.id);
    } catch (error) {
      const message = (error as Error).message;
      process.stderr.write(`${message}\n`);
      if (flags.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
      return 1;
    }
    if (flags.json)
      process.stdout.write(`${JSON.stringify(changes.length > 0 ? { ...report, changes } : report)}\n`);
    else {
      for (const change of changes) process.stdout.write(`${describeChange(change, report.file)}\n`);
      if (changes.length > 0) process.stdout.write('\n');
      if (report.file === null) process.stderr.write(`${match.name} has no evals/trigger_evals.json.\n`);
      else printEval(report);
    }
    return report.file !== null && report.failed === 0 ? 0 : 1;
  });
}
