import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { EvalCase, EvalReport } from '../../../shared/contract';
import type { RoutingIndex } from './lexicon';
import { route, type RouterConfig } from './router';
import type { ScoreContext } from './score';

/** `evals/trigger_evals.json` (DESIGN §2): `[{ query, should_trigger }]`. */
export const TriggerEvals = z.array(
  z.object({ query: z.string().min(1), should_trigger: z.boolean() }).loose(),
);

/** Reads a skill's trigger evals; null when it has none, a clear error when the file is malformed. */
export function readTriggerEvals(
  skillDir: string,
): { file: string; cases: z.infer<typeof TriggerEvals> } | null {
  const file = path.join(skillDir, 'evals', 'trigger_evals.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = TriggerEvals.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message} (expected [{ "query", "should_trigger" }])`,
    );
  }
  return { file, cases: parsed.data };
}

/**
 * Runs trigger evals through the router: pass = (the skill is selected) == should_trigger.
 * They measure routing, not this machine, so prerequisites count as met, history is empty,
 * and the skill's own disable / never-auto-select switches are set aside.
 */
export function runTriggerEvals(
  index: RoutingIndex,
  id: string,
  evals: { file: string; cases: z.infer<typeof TriggerEvals> } | null,
  config: RouterConfig,
): EvalReport {
  const listed = index.all.get(id);
  const name = listed?.metadata.name ?? path.basename(id);
  const ctx: ScoreContext = {
    stats: () => ({ runs: 0, successes: 0 }),
    hasBin: () => true,
    env: {},
    assumeReady: true,
  };
  const without = (set: ReadonlySet<string>) => new Set([...set].filter((n) => n !== name));
  const evalConfig = {
    ...config,
    disabled: without(config.disabled),
    neverAutoSelect: without(config.neverAutoSelect),
  };
  const cases: EvalCase[] = (evals?.cases ?? []).map(({ query, should_trigger }) => {
    const result = route(index, query, evalConfig, ctx);
    const candidate = result.candidates.find((c) => c.id === id);
    const triggered = result.plan.skill_ids.includes(id);
    return {
      query,
      should_trigger,
      triggered,
      pass: triggered === should_trigger,
      status: candidate?.status ?? 'not_recalled',
      score: candidate?.score ?? 0,
      primary: result.plan.primary_id === id ? null : result.plan.primary,
    };
  });
  const tp = cases.filter((c) => c.triggered && c.should_trigger).length;
  const fp = cases.filter((c) => c.triggered && !c.should_trigger).length;
  const fn = cases.filter((c) => !c.triggered && c.should_trigger).length;
  const passed = cases.filter((c) => c.pass).length;
  return {
    id,
    name,
    file: evals?.file ?? null,
    cases,
    passed,
    failed: cases.length - passed,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
  };
}
