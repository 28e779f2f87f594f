import type { ChatTurn, RouteCandidate } from '../../../../shared/contract';

const factor = (value: number, weight: number) => ({ value, weight, contribution: value * weight });

/** A scored candidate for tests. */
export function candidate(name: string, score: number, over: Partial<RouteCandidate> = {}): RouteCandidate {
  return {
    id: `/skills/${name}`,
    name,
    source: 'rule',
    score,
    status: 'selected',
    reason: '',
    factors: {
      intent_match: factor(score, 0.4),
      trigger_match: factor(0.9, 0.2),
      success_rate: factor(0.5, 0.15),
      context_readiness: factor(1, 0.1),
      cost: factor(1, 0.1),
      conflict: factor(1, 0.05),
    },
    matched_triggers: [],
    matched_anti_triggers: [],
    cost_hint: 'low',
    parallel_safe: true,
    runs: 0,
    ...over,
  };
}

/** A turn for tests: plain chat unless `primary` names one of `candidates`. */
export function turn(
  id: string,
  over: Partial<ChatTurn> = {},
  route: { candidates?: RouteCandidate[]; primary?: string } = {},
): ChatTurn {
  const candidates = route.candidates ?? [];
  const primary = candidates.find((c) => c.name === route.primary) ?? null;
  return {
    conversation_id: 'c1',
    turn_id: id,
    message: `message ${id}`,
    route: {
      route_id: `r-${id}`,
      ts: '2025-01-01T00:00:00.000Z',
      origin: 'chat',
      query: `message ${id}`,
      latency_ms: 0.2,
      threshold: 0.65,
      candidates,
      plan: {
        skills: primary ? [primary.name] : [],
        skill_ids: primary ? [primary.id] : [],
        primary: primary?.name ?? null,
        primary_id: primary?.id ?? null,
        parallel_groups: primary ? [[primary.name]] : [],
        fallback_chain: [{ type: 'generic_chat' }],
        estimated_cost: primary ? 'low' : 'none',
        routing_reason: '',
        parameters: { task: `message ${id}` },
      },
    },
    steps: [],
    answer: '',
    status: 'running',
    usage: { input_tokens: 0, output_tokens: 0 },
    skill: null,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: null,
    ...over,
  };
}
