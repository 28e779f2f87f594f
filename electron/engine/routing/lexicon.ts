import type { SkillMetadata, SkillSummary } from '../../../shared/contract';
import { compilePhrase, fold, negatedTerms, terms, type Phrase } from './text';

/** One skill as the router sees it, prepared once per catalog version. */
export interface SkillDoc {
  index: number;
  id: string;
  name: string;
  summary: SkillSummary;
  metadata: SkillMetadata;
  /** Field-weighted term frequencies over name, triggers, tags, description, when_to_use. */
  tf: Map<string, number>;
  /** Terms of the name, triggers and tags: the fields a skill author chose as its handles. */
  strong: Set<string>;
  /** Terms that only occur in a negated span of the description ("not for downloading"). */
  excluded: Set<string>;
  length: number;
  triggers: Phrase[];
  antiTriggers: Phrase[];
}

/** One distinct trigger phrase and every skill that declares it (tested once per query). */
export interface TriggerRef {
  phrase: Phrase;
  docs: number[];
}

/** Field weights of the lexical index: a word in the name says more than one in prose. */
const FIELD_WEIGHT = { name: 3, trigger: 2, tag: 1.5, description: 1, whenToUse: 1 } as const;

/**
 * The routing index over routable skills (DESIGN §3 recall): BM25 postings over name,
 * description, triggers and when_to_use; a trigger index keyed by each phrase's first word
 * (or first CJK character). Built once per catalog version, never per keystroke.
 */
export class RoutingIndex {
  /** Routable skills, in catalog order. */
  readonly docs: SkillDoc[] = [];
  /** Every listed skill by id, routable or not ("why not?" covers them all). */
  readonly all = new Map<string, { summary: SkillSummary; metadata: SkillMetadata }>();
  /** Routable skills by folded name (forced recall). */
  readonly byName = new Map<string, SkillDoc>();
  /** Routable skills by id. */
  readonly byId = new Map<string, SkillDoc>();
  readonly df = new Map<string, number>();
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly triggerKeys = new Map<string, TriggerRef[]>();
  private readonly scores: Float64Array;
  avgLength = 1;

  constructor(skills: { summary: SkillSummary; metadata: SkillMetadata }[]) {
    for (const skill of skills) {
      this.all.set(skill.summary.id, skill);
      if (!skill.summary.routable) continue;
      const doc = buildDoc(this.docs.length, skill.summary, skill.metadata);
      this.docs.push(doc);
      this.byId.set(doc.id, doc);
      const key = fold(doc.name);
      if (!this.byName.has(key)) this.byName.set(key, doc);
    }
    let total = 0;
    const distinct = new Map<string, TriggerRef>();
    for (const doc of this.docs) {
      total += doc.length;
      for (const [term, tf] of doc.tf) {
        this.df.set(term, (this.df.get(term) ?? 0) + 1);
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = { docs: [], tfs: [] }));
        list.docs.push(doc.index);
        list.tfs.push(tf);
      }
      for (const phrase of doc.triggers) {
        const unique = `${phrase.cjk ? 'c' : 'w'}:${phrase.cjk ? phrase.compact : phrase.words.join(' ')}`;
        let ref = distinct.get(unique);
        if (!ref) {
          distinct.set(unique, (ref = { phrase, docs: [] }));
          const key = phrase.cjk ? Array.from(phrase.compact)[0] : phrase.words[0];
          const refs = this.triggerKeys.get(key);
          if (refs) refs.push(ref);
          else this.triggerKeys.set(key, [ref]);
        }
        if (ref.docs[ref.docs.length - 1] !== doc.index) ref.docs.push(doc.index);
      }
    }
    this.avgLength = this.docs.length ? total / this.docs.length : 1;
    this.scores = new Float64Array(this.docs.length);
  }

  get size(): number {
    return this.docs.length;
  }

  /** BM25 inverse document frequency; terms no skill uses get the rarest term's weight halved. */
  idf(term: string): number {
    const n = this.docs.length;
    const df = this.df.get(term) ?? 0;
    if (df === 0) return 0.5 * Math.log(1 + (n - 0.5) / 1.5);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Trigger phrases that start with one of `keys` (candidates to verify against the query). */
  triggersFor(keys: Iterable<string>): TriggerRef[] {
    const out: TriggerRef[] = [];
    for (const key of keys) {
      const refs = this.triggerKeys.get(key);
      if (refs) for (const ref of refs) out.push(ref);
    }
    return out;
  }

  /**
   * Accumulates BM25 scores (k1 = 1.2, b = 0.75) of every doc sharing a term with the query
   * into one reused buffer — routing must stay allocation-light at 10k skills. Read them
   * with `bm25(d)`; the caller must `release()` the touched list afterwards.
   */
  accumulate(queryTerms: string[]): number[] {
    const touched: number[] = [];
    const { scores } = this;
    for (const term of queryTerms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (let i = 0; i < list.docs.length; i++) {
        const d = list.docs[i];
        const tf = list.tfs[i];
        const norm = 1.2 * (0.25 + (0.75 * this.docs[d].length) / this.avgLength);
        if (scores[d] === 0) touched.push(d);
        scores[d] += (idf * tf * 2.2) / (tf + norm);
      }
    }
    return touched;
  }

  bm25(d: number): number {
    return this.scores[d];
  }

  release(touched: number[]): void {
    for (const d of touched) this.scores[d] = 0;
  }

  /** The `k` best accumulated docs that `accept` allows. */
  best(touched: number[], k: number, accept: (doc: SkillDoc) => boolean): { doc: SkillDoc; bm25: number }[] {
    const best: { doc: SkillDoc; bm25: number }[] = [];
    if (k <= 0) return best;
    for (const d of touched) {
      const score = this.scores[d];
      if (best.length === k && score <= best[k - 1].bm25) continue;
      const doc = this.docs[d];
      if (!accept(doc)) continue;
      let at = best.length;
      while (at > 0 && best[at - 1].bm25 < score) at--;
      best.splice(at, 0, { doc, bm25: score });
      if (best.length > k) best.pop();
    }
    return best;
  }
}

/** Prepares one skill for routing (exported for "why not?" on skills outside the index). */
export function buildDoc(index: number, summary: SkillSummary, metadata: SkillMetadata): SkillDoc {
  const tf = new Map<string, number>();
  const strong = new Set<string>();
  let length = 0;
  const add = (text: string | undefined, weight: number, isStrong: boolean) => {
    if (!text) return;
    for (const term of terms(text)) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      length += weight;
      if (isStrong) strong.add(term);
    }
  };
  // Names are kebab-case: `invoice-organizer` yields invoice, organizer.
  add(metadata.name, FIELD_WEIGHT.name, true);
  if (metadata.displayName) add(metadata.displayName, FIELD_WEIGHT.name, true);
  for (const trigger of metadata.triggers) add(trigger, FIELD_WEIGHT.trigger, true);
  for (const tag of metadata.tags) add(tag, FIELD_WEIGHT.tag, true);
  add(metadata.description, FIELD_WEIGHT.description, false);
  add(metadata.shortDescription, FIELD_WEIGHT.description, false);
  add(metadata.whenToUse, FIELD_WEIGHT.whenToUse, false);

  const negated = negatedTerms(`${metadata.description}\n${metadata.whenToUse ?? ''}`);
  const positive = new Set(
    terms(
      [
        metadata.name,
        metadata.triggers.join(' '),
        metadata.tags.join(' '),
        stripNegated(metadata.description),
        stripNegated(metadata.whenToUse ?? ''),
      ].join('\n'),
    ),
  );
  const excluded = new Set([...negated].filter((term) => !positive.has(term)));
  const compile = (list: string[]) => list.map(compilePhrase).filter((p): p is Phrase => p !== null);
  return {
    index,
    id: summary.id,
    name: metadata.name,
    summary,
    metadata,
    tf,
    strong,
    excluded,
    length: Math.max(1, length),
    triggers: compile(metadata.triggers),
    antiTriggers: compile(metadata.antiTriggers),
  };
}

/** The description without its negated sentences, so "Not for PDFs" does not count PDFs as covered. */
function stripNegated(text: string): string {
  return text
    .split(/(?<=[.;!?。；！？\n])/u)
    .filter(
      (sentence) =>
        !/\bnot (?:for|meant|intended|suitable)\b|\bdo(?:n't| not) use\b|不适用|不用于|不要用于|不适合/iu.test(
          sentence,
        ),
    )
    .join(' ');
}
