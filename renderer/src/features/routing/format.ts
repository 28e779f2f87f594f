import {
  isAmountOrTicker,
  type CandidateSource,
  type CandidateStatus,
  type EvidenceKind,
  type Factor,
  type FallbackStep,
  type MatchEvidence,
  type RouteEvent,
} from '../../../../shared/contract';
import type { Tone } from '../../ui/Badge';

/** Scores and factor values: two decimals, the way DESIGN §3 writes them (`0.65`). */
export const formatScore = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '—');

/** Contributions are small (a weight times a value), so they keep a third decimal. */
export const formatContribution = (n: number): string => (Number.isFinite(n) ? n.toFixed(3) : '—');

/** `value × weight = contribution`, as the segment tooltip shows it. */
export const formatEquation = (f: Factor): string =>
  `${formatScore(f.value)} × ${formatScore(f.weight)} = ${formatContribution(f.contribution)}`;

/** Route latencies are often far below a millisecond: `0.042 ms`, `0.61 ms`, `12 ms`, `1.4 s`. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.01) return `${ms.toFixed(2)} ms`;
  return '<0.01 ms';
}

/** Rates in [0, 1] as percents; `null` (no data yet) as a dash. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '—';
  const percent = rate * 100;
  return `${percent >= 10 || percent === 0 ? Math.round(percent) : percent.toFixed(1)}%`;
}

export interface StatusMeta {
  label: string;
  tone: Tone;
  /** Near-misses and skills kept out are dimmed under the selected ones. */
  dim: boolean;
}

export const STATUS_META: Record<CandidateStatus, StatusMeta> = {
  selected: { label: 'Selected', tone: 'green', dim: false },
  below_threshold: { label: 'Below T', tone: 'neutral', dim: true },
  vetoed: { label: 'Vetoed', tone: 'red', dim: true },
  unavailable: { label: 'Unavailable', tone: 'amber', dim: true },
  dropped_overlap: { label: 'Overlap', tone: 'violet', dim: true },
  disabled: { label: 'Disabled', tone: 'neutral', dim: true },
  explicit_only: { label: 'Explicit only', tone: 'neutral', dim: true },
  unroutable: { label: 'Unroutable', tone: 'red', dim: true },
  not_recalled: { label: 'Not recalled', tone: 'neutral', dim: true },
};

export const SOURCE_META: Record<CandidateSource, { label: string; tone: Tone; help: string }> = {
  forced: {
    label: 'forced',
    tone: 'orange',
    help: 'Named in the message ($name, /name, “use X skill”): skips T, not safety',
  },
  rule: { label: 'rule', tone: 'teal', help: 'A trigger phrase of the skill occurs in the message' },
  semantic: {
    label: 'semantic',
    tone: 'blue',
    help: 'Top-k by lexical similarity of the message and the skill',
  },
  none: {
    label: 'not recalled',
    tone: 'neutral',
    help: 'Recall did not bring this skill up for the message',
  },
};

/** A fallback step as the plan card shows it. */
export function fallbackLabel(step: FallbackStep): string {
  switch (step.type) {
    case 'skill':
      return step.name;
    case 'generic_chat':
      return 'plain chat';
    case 'ask_user':
      return 'ask the user';
  }
}

/** `$json-format` / `/json-format` at a word start: what the user typed to force a skill (DESIGN §3). */
export function forcedNames(text: string): string[] {
  return typedForcedNames(text).map((name) => name.toLowerCase());
}

const typedForcedNames = (text: string): string[] =>
  [...text.matchAll(/(?:^|\s)[$/]([a-z0-9][a-z0-9-]*)/gi)].map((match) => match[1]);

/**
 * What the composer says of the draft's `$name`s: those that name a skill (forced), and
 * word-like ones that name none — an amount (`$5`) or a ticker (`$TSLA`) is neither.
 */
export function forcedHint(
  text: string,
  skillNames: ReadonlySet<string>,
): { forcing: string[]; unknown: string[] } {
  const forcing = new Set<string>();
  const unknown = new Set<string>();
  for (const typed of typedForcedNames(text)) {
    const name = typed.toLowerCase();
    if (skillNames.has(name)) forcing.add(name);
    else if (!isAmountOrTicker(typed) && /[a-z]/.test(name)) unknown.add(name);
  }
  return { forcing: [...forcing], unknown: [...unknown] };
}

/** How the score panel names each kind of evidence (issue 10 §6), and its tint. */
export const EVIDENCE_META: Record<EvidenceKind, { label: string; tone: Tone; help: string }> = {
  declared_trigger: { label: 'trigger', tone: 'teal', help: 'A trigger phrase the skill declares' },
  implicit_trigger: {
    label: 'implicit trigger',
    tone: 'green',
    help: 'From the skill’s name, its “Use when …” text, when_to_use or its body’s “When to use” lines',
  },
  word: { label: 'word', tone: 'neutral', help: 'The same word in the skill' },
  synonym: { label: 'synonym', tone: 'violet', help: 'A WordNet synonym or derived form' },
  related: { label: 'related', tone: 'violet', help: 'A WordNet related word (broader term, attribute)' },
  lexicon: {
    label: 'lexicon',
    tone: 'blue',
    help: 'The curated domain lexicon (abbreviations, product words)',
  },
  translation: {
    label: 'translation',
    tone: 'orange',
    help: 'A CC-CEDICT translation between Chinese and English',
  },
  similar: {
    label: 'similar word',
    tone: 'violet',
    help: 'A word with a close static word embedding (GloVe), weighed below WordNet',
  },
  spelling: {
    label: 'spelling',
    tone: 'neutral',
    help: 'A word of the skill one letter away from one no skill uses: read as a typo',
  },
  entity: {
    label: 'recognized',
    tone: 'blue',
    help: 'Something pasted whose shape says what it is (an IP address, an Ethereum address, a cron line)',
  },
  embedding: { label: 'embedding', tone: 'accent', help: 'Similar by a model embedding' },
  arbiter: { label: 'arbiter', tone: 'amber', help: 'Chosen by the model arbiter' },
  lead: {
    label: 'clear leader',
    tone: 'amber',
    help: 'On a request, far ahead of every other candidate: raised toward T (a little under it)',
  },
};

const FIELD_TEXT: Record<string, string> = {
  name: 'name',
  declared: 'triggers',
  implicit: '“Use when”',
  description: 'description',
  translation: 'its Chinese',
  body: 'body',
  when_to_use: 'when_to_use',
};

/** One evidence chip's text: “the user's word”, or word → what it matched, and where. */
export function evidenceText(e: MatchEvidence): string {
  // The clear leader is about the candidates, not a word: its text says by how much.
  if (e.kind === 'lead') return e.matched;
  const where = e.field ? ` · ${FIELD_TEXT[e.field] ?? e.field}` : '';
  const arrow = e.kind === 'similar' ? '≈' : '→';
  const what = e.query === e.matched ? `“${e.query}”` : `${e.query} ${arrow} ${e.matched}`;
  return `${what}${where}`;
}

/** A reason without the engine's " — matched …" tail, which the evidence chips show instead. */
export const statusReason = (reason: string): string => reason.split(' — matched ')[0];

/** A skill the model ran when the router chose none; score null when the router never recalled it. */
export interface ModelChoice {
  id: string;
  name: string;
  score: number | null;
}

/**
 * The skill the model ran when the router chose none (plain chat offered it the closest
 * candidates, or a small catalog whole): from the recorded outcome, or null.
 */
export function modelChoice(route: Pick<RouteEvent, 'plan' | 'candidates' | 'result'>): ModelChoice | null {
  const result = route.result;
  if (route.plan.primary_id || !result?.chosen_by_model || !result.skill_id) return null;
  const candidate = route.candidates.find((c) => c.id === result.skill_id);
  if (candidate) return { id: candidate.id, name: candidate.name, score: candidate.score };
  return result.skill ? { id: result.skill_id, name: result.skill, score: null } : null;
}
