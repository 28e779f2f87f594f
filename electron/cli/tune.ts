import type { DescriptionCandidate, DescriptionTuning, EvalReport } from '../../shared/contract';
import { refuse, withSkill, type DiscoveryFlags } from './context';
import { oneLine } from './terminal';

const score = (c: DescriptionCandidate) =>
  `train ${c.train.passed}/${c.train.total}  held-out ${c.test.passed}/${c.test.total}`;

function printTuning(t: DescriptionTuning): void {
  const lines = [
    `Tuning the description of ${t.name} with ${t.model}: ${t.train.length} cases to learn from, ${t.test.length} held out`,
    '',
    `  current   ${score(t.baseline)}  ${oneLine(t.baseline.description)}`,
    ...t.candidates.map((c) => `  round ${c.round}   ${score(c)}  ${oneLine(c.description)}`),
    ...t.notes.map((note) => `  (${oneLine(note)})`),
    '',
  ];
  const best = t.best === null ? null : t.candidates[t.best];
  lines.push(
    best
      ? `Best: round ${best.round} (${score(best)}).`
      : 'No round did better than the current description on the cases it learns from; it stays.',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * `eval SKILL --improve [--rounds N] [--apply]`: tunes the skill's description with the configured
 * model against its trigger evals, judged by this router on a held-out part (agentskills.io
 * "Optimizing descriptions"); `--apply` writes the best into SKILL.md. Exit 0 when a better
 * description was found (and, with --apply, written), 1 when none was, 2 when it could not run.
 */
export async function tuneCommand(
  skill: string,
  flags: DiscoveryFlags & { json: boolean; rounds?: string; apply: boolean },
): Promise<number> {
  const rounds = flags.rounds === undefined ? 3 : Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 5)
    return refuse('--rounds takes a whole number from 1 to 5.', flags.json);
  return withSkill(flags, skill, async (engine, match) => {
    let tuning: DescriptionTuning;
    try {
      tuning = await engine.routing.improveDescription(match.id, rounds);
    } catch (error) {
      return refuse((error as Error).message, flags.json);
    }
    const best = tuning.best === null ? null : tuning.candidates[tuning.best];
    let report: EvalReport | undefined;
    if (flags.apply && best) {
      engine.routing.writeDescription(match.id, best.description, tuning.content_hash);
      await engine.reloadSkills();
      report = engine.routing.runEvals(match.id);
    }
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ ...tuning, applied: report !== undefined, ...(report ? { report } : {}) })}\n`,
      );
    else {
      printTuning(tuning);
      if (report)
        process.stdout.write(
          `Wrote it into ${tuning.file}: ${report.passed}/${report.cases.length} trigger evals pass now.\n`,
        );
      else if (best) process.stdout.write('Nothing was written; --apply writes it into SKILL.md.\n');
    }
    return best ? 0 : 1;
  });
}
