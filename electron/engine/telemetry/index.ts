/** Route events, per-skill run stats and metrics (DESIGN §3, routing spec §14). */
export { RouteLog } from './routeLog';
export { SkillStats, type SkillRuns } from './stats';
export { computeMetrics, percentile } from './metrics';
