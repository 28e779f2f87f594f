/** Two-phase routing (DESIGN §3): recall → score → ActivationPlan, "why not?", trigger evals. */
export { RoutingIndex, type SkillDoc } from './lexicon';
export { route, whyNot, configFromSettings, type RouterConfig } from './router';
export { RoutingService, type ChoosableSkill, type RoutingDeps } from './service';
export { readTriggerEvals, runTriggerEvals } from './evals';
export type { ScoreContext } from './score';
