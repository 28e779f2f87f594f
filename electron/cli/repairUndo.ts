import type { RepairRevision } from '../../shared/contract';
import { findSkill, openEngine, type DiscoveryFlags } from './context';
import { forTerminal } from './terminal';

export interface UndoFlags extends DiscoveryFlags {
  json: boolean;
}

/** A refusal of `--undo`: said on stderr, `{ error }` with --json, exit 1 (nothing was changed). */
function notUndone(message: string, json: boolean): 1 {
  process.stderr.write(`${forTerminal(message)}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  return 1;
}

/**
 * `repair SKILL --undo [REVISION]`: takes back an applied repair (DESIGN §5: every file back byte
 * for byte), the newest one not yet undone unless a revision is named. The engine refuses when a
 * file changed after the repair (a later repair or a hand edit), so nothing newer is lost.
 * Prints `{ undone: <the revision> }` with --json; exit 0 when undone, 1 otherwise.
 */
export async function repairUndoCommand(
  skill: string,
  revision: string | undefined,
  flags: UndoFlags,
): Promise<number> {
  const engine = await openEngine(flags);
  try {
    // Revisions are kept by skill name; another folder's same-named skill has its own.
    const match = findSkill(engine, skill);
    const name = match?.name ?? skill;
    const history: RepairRevision[] = engine.repair
      .history(name)
      .filter((r) => !match || r.skill_id === match.id);
    const target = revision
      ? history.find((r) => r.revision === revision)
      : history.find((r) => r.undone_at === null);
    if (!target) {
      if (!revision) return notUndone(`${name} has no applied repair to undo.`, flags.json);
      const known = history.map((r) => r.revision).join(', ');
      return notUndone(
        `${name} has no revision ${revision}${known ? `; its revisions: ${known}` : ''}.`,
        flags.json,
      );
    }
    let undone: RepairRevision;
    try {
      undone = await engine.repair.undo(target.revision);
    } catch (error) {
      return notUndone(error instanceof Error ? error.message : String(error), flags.json);
    }
    if (flags.json) process.stdout.write(`${JSON.stringify({ undone })}\n`);
    else
      process.stdout.write(
        forTerminal(
          `Undid revision ${undone.revision} of ${undone.skill}: ${undone.files.map((f) => f.path).join(', ')} ${undone.files.length === 1 ? 'is' : 'are'} back as before.\n`,
        ),
      );
    return 0;
  } finally {
    await engine.close();
  }
}
