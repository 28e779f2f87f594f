import type { EvidenceKind, MatchEvidence } from '../../../shared/contract';
import type { RoutingIndex } from './lexicon';
import { explainMatch, type QueryMatch } from './match';
import type { Recalled } from './recall';
import { fold } from './text';

/** At most this many pieces of evidence per candidate: the score panel shows one line. */
const MAX_EVIDENCE = 6;
/** Which field to name when a word sits in several, strongest first. */
const FIELD_ORDER = ['name', 'declared', 'implicit', 'description', 'translation', 'body'] as const;

/**
 * What made a candidate match, strongest first (issue 10 §6): declared trigger phrases, then
 * implicit triggers with where they came from, then each query word that matched and how —
 * as itself, a WordNet synonym, the domain lexicon, a CC-CEDICT translation.
 */
export function evidenceFor(
  index: RoutingIndex,
  recalled: Recalled,
  match: QueryMatch,
  typed?: { task: string; reworded?: string },
): MatchEvidence[] {
  const out: MatchEvidence[] = [];
  for (const trigger of recalled.matchedTriggers)
    out.push({ kind: 'declared_trigger', query: trigger, matched: trigger, field: 'declared' });
  for (const hit of recalled.implicitHits)
    out.push({
      kind: 'implicit_trigger',
      query: hit.text,
      matched: hit.text,
      field: hit.origin === 'description' ? 'implicit' : hit.origin,
    });
  const words = explainMatch(index, recalled.doc, match).sort((a, b) => b.score - a.score);
  const said = new Set(out.map((e) => e.query.toLowerCase()));
  for (const word of words) {
    // A word the trigger chip already quotes needs no second chip.
    if (word.via === 'exact' && said.has(word.word)) continue;
    const kind: EvidenceKind = word.via === 'exact' ? 'word' : word.via;
    const field = FIELD_ORDER.find((f) => word.fields.includes(f));
    // "create" of "make a new skill" (instruction.ts rewords it): the user's words, not a word typed.
    if (kind === 'word' && typed?.reworded && !fold(typed.task).includes(word.word)) {
      out.push({ kind: 'lexicon', query: typed.reworded, matched: word.word, field });
      continue;
    }
    out.push({ kind, query: word.word, matched: word.via === 'exact' ? word.word : word.shown, field });
  }
  return out.slice(0, MAX_EVIDENCE);
}

const KIND_TEXT: Record<EvidenceKind, string> = {
  declared_trigger: 'trigger',
  implicit_trigger: 'implicit trigger',
  word: 'word',
  synonym: 'synonym',
  related: 'related word',
  lexicon: 'domain lexicon',
  translation: 'translation',
  similar: 'similar word',
  spelling: 'spelling',
  entity: 'recognized',
  embedding: 'embedding',
  arbiter: 'model arbiter',
  lead: 'clear leader',
};

/**
 * One line for a candidate's reason: the strongest evidence that is not a plain word match,
 * or the plain words when that is all there is ("translation 下雨 → rain; word “weather”").
 */
export function describeEvidence(evidence: readonly MatchEvidence[]): string {
  if (evidence.length === 0) return '';
  const parts = evidence.slice(0, 3).map((e) => {
    const where = e.field ? ` (${e.field.replace('_', ' ')})` : '';
    if (e.kind === 'lead') return `${KIND_TEXT.lead} of a request, ${e.matched}`;
    if (e.kind === 'declared_trigger' || e.kind === 'implicit_trigger' || e.kind === 'word')
      return `${KIND_TEXT[e.kind]} “${e.query}”${where}`;
    const arrow = e.kind === 'similar' ? '≈' : '→';
    return `${KIND_TEXT[e.kind]} ${e.query} ${arrow} ${e.matched}${where}`;
  });
  return `matched ${parts.join('; ')}`;
}
