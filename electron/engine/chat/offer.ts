import type { RouteEvent } from '../../../shared/contract';
import type { ChoosableSkill } from '../routing';
import { arbiterJudged } from '../routing/model';
import { nameSlug } from '../routing/text';

/** Plain chat offers the model at most this many of the skills the router found but did not pick. */
const OFFERED_SKILLS = 5;
/**
 * A catalog whose list fits this many characters (about two thousand tokens: some fifty skills
 * at one short line each) is listed whole besides those, as agents that read a skill list see
 * it: a request in words the router cannot match ("do I need an umbrella?") still finds its
 * skill. A larger one lists only the closest, so a plain answer does not carry the catalog.
 */
const LISTED_CATALOG_CHARS = 8000;
const CLOSEST_DESCRIPTION_CHARS = 300;
const OTHER_DESCRIPTION_CHARS = 150;

/** What plain chat offers the model when the router chose no skill (issue 10 §5, in the turn). */
export interface SkillOffer {
  /** Every skill the model may run: not vetoed or unavailable for this message. */
  offerable: ChoosableSkill[];
  /** Listed first: the closest below T, as the router ranked them. */
  closest: ChoosableSkill[];
  /** Listed after: the rest of a small catalog (none for a large one). */
  others: ChoosableSkill[];
}

/**
 * The offer for a turn's route: none when the arbiter already judged the candidates or the
 * message asks for no skill, else the closest below-T skills and, in a small catalog, every
 * other skill the model may choose.
 */
export function skillOffer(route: RouteEvent, catalog: ChoosableSkill[]): SkillOffer {
  // The arbiter already judged the candidates; a message that asks for no skill gets none.
  if (arbiterJudged(route.model?.arbiter) || route.plan.no_skill)
    return { offerable: [], closest: [], others: [] };
  const excluded = new Set(
    route.candidates.filter((c) => c.status === 'vetoed' || c.status === 'unavailable').map((c) => c.id),
  );
  const offerable = catalog.filter((o) => !excluded.has(o.id));
  const byId = new Map(offerable.map((o) => [o.id, o]));
  const closest = route.candidates
    .filter((c) => c.status === 'below_threshold' && c.source !== 'forced' && byId.has(c.id))
    .slice(0, OFFERED_SKILLS)
    .map((c) => byId.get(c.id)!);
  const rest = offerable.filter((o) => !closest.includes(o));
  const restChars = rest.reduce((n, o) => n + listLine(o, OTHER_DESCRIPTION_CHARS).length + 1, 0);
  return { offerable, closest, others: restChars <= LISTED_CATALOG_CHARS ? rest : [] };
}

/**
 * The skill the model asked for: any it may choose, listed or not (it may know one from the
 * conversation), by its exact name or the same name in another case or spelling ("Weather Lookup").
 */
export function offeredSkill(offer: SkillOffer, asked: string): ChoosableSkill | undefined {
  return (
    offer.offerable.find((o) => o.name === asked) ??
    offer.offerable.find((o) => nameSlug(o.name) === nameSlug(asked))
  );
}

/**
 * What `run_skill` answers a call that names no skill it may run: the name it asked for, so the
 * model does not read the list as a schema complaint and call the same name again.
 */
export function offerRefusal(offer: SkillOffer, asked?: string): string {
  const listed = [...offer.closest, ...offer.others];
  const more =
    offer.offerable.length > listed.length
      ? ` (or another of the ${offer.offerable.length} installed skills)`
      : '';
  const which = asked
    ? `There is no skill ${JSON.stringify(asked.slice(0, 100))} you may run here (it is not installed, or the user runs it only by name). `
    : '';
  return `${which}run_skill takes { skill, task } with one of: ${listed.map((o) => o.name).join(', ')}${more}.`;
}

/** One skill as the offer lists it: its name and its description, cut at `max` characters. */
function listLine(o: ChoosableSkill, max: number): string {
  const text = o.description.replace(/\s+/g, ' ').trim();
  return `- ${o.name}: ${text.length > max ? `${text.slice(0, max - 1)}…` : text}`;
}

/**
 * Plain chat with the skills the router found but did not pick (below T), and in a small
 * catalog every other skill too: the model sees them and may run one with `run_skill`, as
 * agents that read a skill list choose for themselves. A paraphrase the router misses ("do I
 * need an umbrella tomorrow?") still reaches its skill when a model is configured.
 */
export function offeringSystem({ closest, others }: SkillOffer): string {
  return [
    closest.length > 0
      ? 'You are SkillDeck’s assistant. The router chose no skill for this message; these installed skills came closest:'
      : 'You are SkillDeck’s assistant. The router chose no skill for this message.',
    ...closest.map((o) => listLine(o, CLOSEST_DESCRIPTION_CHARS)),
    ...(others.length > 0
      ? [
          closest.length > 0 ? 'Other installed skills:' : 'Installed skills:',
          ...others.map((o) => listLine(o, OTHER_DESCRIPTION_CHARS)),
        ]
      : []),
    'If one of them clearly does what the user asks, call run_skill with its exact name and the full task, then answer from its result.',
    'Otherwise answer directly and concisely, without a tool. Answer in the user’s language.',
  ].join('\n');
}
