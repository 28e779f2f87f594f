import type { RepairRevision } from '../../shared/contract';
import { openEngine, type DiscoveryFlags } from './context';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One revision as `skills history` lists it. */
function revisionLines(r: RepairRevision): string[] {
  const state = r.undone_at ? `undone ${r.undone_at}` : 'applied';
  return [
    `${r.revision}  ${r.applied_at}  ${r.source}  ${state}`,
    `    ${r.files.map((f) => f.path).join(', ')}: ${r.root_cause}`,
  ];
}

/**
 * `skills history NAME`: the skill's revisions, newest first, whoever wrote them (`skills fix
 * --apply`, `repair --apply`, the app's review), so a CLI user can find what to undo.
 */
export async function skillsHistory(
  skill: string | undefined,
  flags: DiscoveryFlags & { json: boolean },
): Promise<number> {
  if (!skill) {
    process.stderr.write('usage: skilldeck skills history NAME [--json]\n');
    return 2;
  }
  const engine = await openEngine(flags);
  try {
    const revisions = engine.repair.history(skill);
    if (flags.json) process.stdout.write(`${JSON.stringify({ skill, revisions })}\n`);
    else if (revisions.length === 0) process.stdout.write(`${skill} has no repair revisions.\n`);
    else
      process.stdout.write(
        `${[...revisions.flatMap(revisionLines), '', 'skilldeck skills undo REVISION puts its files back as they were.'].join('\n')}\n`,
      );
    return 0;
  } finally {
    await engine.close();
  }
}

/** `skills undo REVISION`: every file the revision changed goes back byte for byte (DESIGN §5). */
export async function skillsUndo(
  revision: string | undefined,
  flags: DiscoveryFlags & { json: boolean },
): Promise<number> {
  if (!revision) {
    process.stderr.write(
      'usage: skilldeck skills undo REVISION [--json]   (skills history NAME lists them)\n',
    );
    return 2;
  }
  const engine = await openEngine(flags);
  try {
    const undone = await engine.repair.undo(revision);
    const files = undone.files.map((f) => f.path).join(', ');
    process.stdout.write(
      flags.json
        ? `${JSON.stringify({ undone: true, revision: undone })}\n`
        : `Undid ${undone.revision} of ${undone.skill}: ${files} ${undone.files.length === 1 ? 'is' : 'are'} back as before it.\n`,
    );
    return 0;
  } catch (error) {
    const message = messageOf(error);
    process.stderr.write(`skilldeck: ${message}\n`);
    if (flags.json) process.stdout.write(`${JSON.stringify({ undone: false, error: message })}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}
