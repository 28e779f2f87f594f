import type { RouteCandidate, RouteEvent } from '../../shared/contract';
import { openEngine, refuse, type DiscoveryFlags } from './context';
import { oneLine } from './terminal';

export const pad = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

/** A 20-cell bar of the score, with T marked: the score panel, in a terminal. */
function bar(score: number, threshold: number): string {
  const cells = Array.from<unknown, string>({ length: 20 }, (_, i) =>
    i < Math.round(score * 20) ? '█' : '·',
  );
  cells[Math.min(19, Math.round(threshold * 20))] = '|';
  return cells.join('');
}

function printRoute(event: RouteEvent): void {
  const out: string[] = [
    `Query: ${event.query}`,
    `Routed in ${event.latency_ms} ms (T = ${event.threshold})`,
    '',
  ];
  if (event.candidates.length === 0) out.push('  no candidates');
  for (const c of event.candidates) {
    out.push(
      `  ${pad(c.name, 28)} ${pad(c.source, 9)} ${c.score.toFixed(3)} ${bar(c.score, event.threshold)} ${c.status}`,
    );
    // An unavailable candidate's reason names what is missing; the skill may say how to install it.
    out.push(`      ${c.reason}`);
    for (const hint of c.install ?? [])
      out.push(`      to install: ${hint.command}${hint.label ? `   (${hint.label})` : ''}`);
    out.push(`      ${factorLine(c)}`);
  }
  const { plan } = event;
  out.push('', `Primary: ${plan.primary ?? '(none — plain chat)'}`);
  if (plan.skills.length > 1) out.push(`Skills: ${plan.skills.join(', ')}`);
  if (plan.parallel_groups.length > 0)
    out.push(`Groups: ${plan.parallel_groups.map((g) => `[${g.join(' + ')}]`).join(' → ')}`);
  out.push(`Fallback: ${plan.fallback_chain.map((s) => (s.type === 'skill' ? s.name : s.type)).join(' → ')}`);
  out.push(
    `Estimated cost: ${plan.estimated_cost}`,
    `Why: ${plan.routing_reason}`,
    `Route id: ${event.route_id}`,
  );
  // Names, reasons and matched words come from third-party SKILL.md files (and the query): each
  // line is shown without the control characters a terminal would act on.
  process.stdout.write(`${out.map(oneLine).join('\n')}\n`);
}

const factorLine = (c: RouteCandidate) =>
  Object.entries(c.factors)
    .map(([name, f]) => `${name} ${f.value.toFixed(2)}×${f.weight.toFixed(2)}`)
    .join('  ');

/** `route "QUERY"`: route one query, record the event (DESIGN §7), print the breakdown. */
export async function routeCommand(
  query: string | undefined,
  flags: DiscoveryFlags & { json: boolean },
): Promise<number> {
  if (!query?.trim())
    return refuse('usage: skilldeck route "QUERY" [--skills DIR]… [--no-default-paths] [--json]', flags.json);
  const engine = await openEngine(flags);
  try {
    // A one-shot route is a send: with a model configured it may use embeddings and the arbiter.
    const event = await engine.routing.commitWithModel(query, 'cli');
    const unrecorded = engine.routing.log.writeError;
    if (unrecorded)
      process.stderr.write(
        `skilldeck: the route was not recorded: ${unrecorded}. Set SKILLDECK_HOME to a folder you can write.\n`,
      );
    if (flags.json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else printRoute(event);
    return 0;
  } finally {
    await engine.close();
  }
}
