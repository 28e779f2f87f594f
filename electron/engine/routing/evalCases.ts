import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../atomic';
import { EngineError, forbidden, notFound } from '../errors';
import { readTriggerEvals } from './evals';

/** What saving or removing a case did to `evals/trigger_evals.json`. */
export type EvalChange = 'added' | 'updated' | 'unchanged' | 'removed';

/** Evals run on every open of the tab and every save: a skill's file stays a size that is instant. */
export const MAX_EVAL_CASES = 500;

/** Case, runs of blanks and the ends do not change a route, so they do not make a new case. */
const sameQuery = (a: string, b: string) => normalize(a) === normalize(b);
const normalize = (query: string) => query.trim().replace(/\s+/g, ' ').toLowerCase();

type Cases = NonNullable<ReturnType<typeof readTriggerEvals>>['cases'];

/**
 * Adds `{ query, should_trigger }` to a skill's `evals/trigger_evals.json` (DESIGN §2), or
 * changes the answer of the case with the same query; the file is created when missing.
 * Other cases keep their order, words and extra fields; a malformed file is never overwritten.
 */
export function saveTriggerEval(skillDir: string, query: string, shouldTrigger: boolean): EvalChange {
  const words = query.trim();
  if (!words) throw new EngineError('invalid_params', 'The query is empty: type what a user would say.');
  const { file, cases } = readForWrite(skillDir);
  const same = cases.find((c) => sameQuery(c.query, words));
  if (same?.should_trigger === shouldTrigger) return 'unchanged';
  if (same) {
    same.should_trigger = shouldTrigger;
    write(file, cases);
    return 'updated';
  }
  if (cases.length >= MAX_EVAL_CASES)
    throw new EngineError(
      'invalid_params',
      `${file} already holds ${MAX_EVAL_CASES} cases; remove some before adding more.`,
    );
  write(file, [...cases, { query: words, should_trigger: shouldTrigger }]);
  return 'added';
}

/** Removes every case whose query is `query` (case and blanks aside); not_found when none is. */
export function removeTriggerEval(skillDir: string, query: string): EvalChange {
  const { file, cases } = readForWrite(skillDir);
  const kept = cases.filter((c) => !sameQuery(c.query, query));
  if (kept.length === cases.length) throw notFound(`${file} has no case "${query.trim().slice(0, 200)}".`);
  write(file, kept);
  return 'removed';
}

/**
 * The skill's cases, read for a rewrite. The file and its folder must be the skill's own: a
 * link could point the write anywhere the user can write, so either one being a link is refused.
 */
function readForWrite(skillDir: string): { file: string; cases: Cases } {
  const folder = path.join(skillDir, 'evals');
  const file = path.join(folder, 'trigger_evals.json');
  for (const [at, what] of [
    [folder, 'folder'],
    [file, 'file'],
  ] as const) {
    const stat = lstatOrNull(at);
    if (stat?.isSymbolicLink())
      throw forbidden(`${at} is a link; SkillDeck writes evals only inside the skill's own folder.`);
    if (stat && (what === 'folder' ? !stat.isDirectory() : !stat.isFile()))
      throw new EngineError('invalid_params', `${at} is not a ${what}.`);
  }
  try {
    return { file, cases: readTriggerEvals(skillDir)?.cases ?? [] };
  } catch (error) {
    throw new EngineError('invalid_params', `${(error as Error).message}; fix it by hand first.`);
  }
}

function lstatOrNull(at: string): fs.Stats | null {
  try {
    return fs.lstatSync(at);
  } catch {
    return null;
  }
}

function write(file: string, cases: Cases): void {
  // A skill file others may read, share or commit: keep its mode, or 0644 for a new one.
  const mode = lstatOrNull(file)?.mode ?? 0o644;
  try {
    writeFileAtomicSync(file, `${JSON.stringify(cases, null, 2)}\n`, mode & 0o777);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EngineError(
      code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'forbidden' : 'internal',
      `Could not write ${file}: ${(error as Error).message}`,
    );
  }
}
