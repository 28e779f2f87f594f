import { SECOND_GLOSS_WEIGHT, VIA_WEIGHT, type QueryGroup, type Variant, type Via } from './analyze';
import { FIELD, type FieldName, type RoutingIndex, type SkillDoc } from './lexicon';
import { isEnglishWord, withSpelling } from './spelling';
import { scratchOf } from './matchScratch';
import { hasCjk, nameTerms } from './text';

/** BM25 saturation (the usual k1 = 1.2); length normalization is per field, in the index (lexicon.ts). */
const K1 = 1.2;
/**
 * A synonym or translation common to this share of skills (and to more than COMMON_FLOOR of
 * them: in a dozen-skill catalog every word is "common") says too little to look up.
 */
const COMMON_EXPANSION = 0.03;
const COMMON_FLOOR = 30;
/** The field-weighted tf a query word typically has in a right skill: sets the coverage scale. */
const REFERENCE_TF = 2.5;
/**
 * A query that names a skill ("1Password", "Sentry", "Semantic Scholar") is the strongest
 * lexical evidence there is, but BM25's saturation leaves a name word barely above a prose
 * word. A skill whose whole name is in the query gets this many rare words' worth on top
 * (scaled by the square of the share of its name present, so "street" alone does little for
 * process-street).
 */
const NAME_BONUS = 0.6;
/**
 * On top of NAME_BONUS, whatever share of the name the query holds, when the name starts with a
 * product the query names (productTerms): "in Docmosis" outweighs the .docx and the PDF that
 * pdf-to-docx matches by name too.
 */
const PRODUCT_BONUS = 1;
/** A product name is used by at most this many skills (any field): more, and it is a common word. */
const PRODUCT_DF = 3;
/** The score share kept by a skill that matches none of the query's other words. */
const COORD = 0.5;

/** BM25F scores of every skill a query touches, and the mass a perfect match would get. */
export interface QueryMatch {
  groups: QueryGroup[];
  /** Per group, the contribution a skill using its best-known variant REFERENCE_TF times gets (0: payload). */
  reach: number[];
  /** Σ reach: the query's routable mass (words no skill uses — a city, a name — are not in it). */
  mass: number;
  /** The share of the mass that Chinese words carry (calibration.ts `chinese`), in [0, 1]. */
  chinese: number;
  /** A skill's score (0 when it shares no term with the query). */
  score(d: number): number;
  /**
   * The part of a skill's score that is the product bonus (PRODUCT_BONUS): it ranks the named
   * tool first, but chat about the tool ("What is Spotify's business model?") reads without it.
   */
  productBonus: ReadonlyMap<number, number>;
  /** Every skill with a score above 0. */
  touched: readonly number[];
  /** The best score any skill got (0 when none matched). */
  best: number;
  /** How many skills the index holds. */
  size: number;
  /** The score of one rare word (df 1) fully matched: the unit of match strength. */
  unit: number;
  /** The best docs by score, best first (recall's pool). */
  pool: number[];
}

/** How many of the best-scored skills recall looks at (a keystroke at 10k skills). */
export const POOL_SIZE = 48;

/**
 * The user's own word (or what its typo stands for), or a Chinese word's first two English glosses
 * (图片 → picture: what an English speaker would have typed): looked up however common, at the IDF
 * it has. Other expansions of a common word say too little to be worth the walk.
 */
const ownWord = (variant: Variant): boolean =>
  variant.via === 'exact' ||
  variant.via === 'spelling' ||
  variant.via === 'entity' ||
  (variant.via === 'translation' && variant.weight >= SECOND_GLOSS_WEIGHT);

/**
 * Two neighbouring Chinese words whose glosses make an English compound a skill uses (工作 "work"
 * + 流 "flow" → workflow, which CC-CEDICT does not list): each of the two may match the
 * compound, at a first gloss's weight, besides what it means alone — so a skill that says
 * "workflow" covers both words as one that says "dark mode" covers 暗黑 and 模式.
 */
export function withJoins(index: RoutingIndex, groups: QueryGroup[]): QueryGroup[] {
  if (!groups.some((g) => g.joins)) return groups;
  const out = [...groups];
  groups.forEach((group, g) => {
    const hits = (group.joins ?? []).filter((j) => (index.postingsOf(j.term)?.meta ?? 0) > 0);
    if (hits.length === 0) return;
    const joined: Variant[] = hits.map((j) => ({
      term: j.term,
      weight: JOIN_WEIGHT,
      via: 'translation',
      shown: j.shown,
    }));
    out[g] = { ...out[g], variants: [...out[g].variants, ...joined] };
    const n = groups.findIndex((other) => other.text === hits[0].next);
    if (n >= 0) out[n] = { ...out[n], variants: [...out[n].variants, ...joined] };
  });
  return out;
}

/** The most CamelCase parts a product's name is read for (GoHighLevel: 3). */
const MAX_CAMEL_PARTS = 6;

/** Product suffixes a skill's name may glue to a brand: perplexityai, notionhq, convertapi, slackbot. */
const BRAND_SUFFIXES = ['ai', 'hq', 'api', 'app', 'io', 'bot', 'cli', 'hub'];

/**
 * A word typed as a name ("Ask Perplexity …") also means the skill names that glue it to a
 * product suffix (perplexityai-automation): the user says the brand, the toolkit's name its domain.
 * A CamelCase one also means a name that is a run of its parts (GoHighLevel → highlevel).
 */
export function withBrands(index: RoutingIndex, groups: QueryGroup[]): QueryGroup[] {
  if (!groups.some((g) => g.cased)) return groups;
  return groups.map((group) => {
    // Only for a brand no skill's name has as it was typed: Whisper names openai-whisper-api by "whisper".
    if (!group.cased || group.variants.some((v) => v.via === 'exact' && index.namedBy(v.term).length > 0))
      return group;
    const runs: string[] = [];
    // A product's name has a few parts; a pasted token (base64, a hash) has hundreds, and their
    // runs would be counted by the cube on every keystroke.
    const parts = (group.camel ?? []).length <= MAX_CAMEL_PARTS ? (group.camel ?? []) : [];
    for (let from = 0; from < parts.length; from++)
      for (let to = from + 2; to <= parts.length; to++)
        if (to - from < parts.length) runs.push(parts.slice(from, to).join(''));
    const glued = [...BRAND_SUFFIXES.map((suffix) => group.surface + suffix), ...runs]
      .flatMap((word) => nameTerms(word))
      .filter((term) => index.namedBy(term).length > 0);
    if (glued.length === 0) return group;
    const variants: Variant[] = glued.map((term) => ({ term, weight: 1, via: 'exact', shown: term }));
    return { ...group, variants: [...group.variants, ...variants] };
  });
}

/** A compound's weight: a first gloss's. */
const JOIN_WEIGHT = VIA_WEIGHT.translation;

/** BM25's saturation of a length-normalized (BM25F pseudo-)frequency. */
const termScore = (idf: number, tf: number) => (idf * tf * (K1 + 1)) / (tf + K1);

/**
 * Scores every skill sharing a term with the query (BM25F over the weighted fields). A group
 * counts once per skill, by its best variant, so synonyms and translations widen recall
 * without adding up. Then coordination and the name bonus.
 */
export function matchQuery(index: RoutingIndex, typed: QueryGroup[]): QueryMatch {
  const groups = withSpelling(index, withBrands(index, withJoins(index, typed)));
  const scratch = scratchOf(index);
  const { total, best, reached, stamp, touched } = scratch;
  const reach: number[] = [];
  const n = Math.max(1, index.size);
  const { docs } = index;
  let mass = 0;
  let chineseMass = 0;
  for (const group of groups) {
    const generation = ++scratch.generation;
    const groupTouched: number[] = [];
    let groupReach = 0;
    for (const variant of group.variants) {
      // A word only bodies use still matches; expansions common in the metadata are skipped.
      const list = index.postingsOf(variant.term);
      if (!list || (!ownWord(variant) && list.meta > COMMON_FLOOR && list.meta / n > COMMON_EXPANSION))
        continue;
      const idf = index.idfOf(list, variant.term);
      const weight = group.weight * variant.weight;
      groupReach = Math.max(groupReach, (weight * (idf * REFERENCE_TF * (K1 + 1))) / (REFERENCE_TF + K1));
      // An embedding neighbour meets the skill's own words (name, triggers, description), not its
      // body: a body mentions too much for a loose match to say what the skill is for.
      const metaOnly = variant.via === 'similar';
      const loose = looseHop(variant);
      const postedDocs = metaOnly ? list.metaDocs : list.docs;
      const postedTfs = metaOnly ? list.metaTfs : list.tfs;
      for (let i = 0; i < postedDocs.length; i++) {
        const d = postedDocs[i];
        if (loose && glossOnly(docs[d], variant.term)) continue;
        const s = weight * termScore(idf, postedTfs[i]);
        if (stamp[d] !== generation) {
          stamp[d] = generation;
          best[d] = s;
          groupTouched.push(d);
        } else if (s > best[d]) best[d] = s;
      }
    }
    reach.push(groupReach);
    mass += groupReach;
    if (hasCjk(group.text)) chineseMass += groupReach;
    for (const d of groupTouched) {
      if (total[d] === 0) touched.push(d);
      total[d] += best[d];
      reached[d] += groupReach;
    }
  }
  // Coordination (Lucene's coord): a skill that answers more of the query beats one that
  // repeats a single rare word, so a partial name ("street") does not outrank the task.
  if (mass > 0) for (const d of touched) total[d] *= COORD + (1 - COORD) * Math.min(1, reached[d] / mass);
  const unit = Math.log(1 + (n - 0.5) / 1.5) * (K1 + 1);
  const queryTerms = new Set<string>();
  for (const group of groups)
    for (const v of group.variants)
      if (v.via !== 'synonym' && v.via !== 'related' && v.via !== 'similar') queryTerms.add(v.term);
  // The bonus goes to the best few and to skills named by a rare query word: a name word that
  // hundreds of skills share is no identity, and visiting them all would cost a keystroke.
  const scoreOf = (d: number) => total[d];
  const named = new Set<number>(topDocs(touched, scoreOf, 2 * POOL_SIZE));
  for (const term of queryTerms) {
    const list = index.namedBy(term);
    if (list.length <= POOL_SIZE) for (const d of list) named.add(d);
  }
  const products = productTerms(index, groups);
  const productBonus = new Map<number, number>();
  for (const d of named) {
    const share = nameShare(docs[d], queryTerms, index) ** 2;
    if (share === 0 || total[d] === 0) continue;
    total[d] += NAME_BONUS * unit * share;
    if (!namesProduct(docs[d], products)) continue;
    productBonus.set(d, PRODUCT_BONUS * unit);
    total[d] += PRODUCT_BONUS * unit;
  }
  const pool = topDocs(named, scoreOf, POOL_SIZE);
  const top = pool.length > 0 ? total[pool[0]] : 0;
  return {
    groups,
    reach,
    mass,
    chinese: mass > 0 ? chineseMass / mass : 0,
    score: (d) => (d >= 0 ? total[d] : 0),
    productBonus,
    touched,
    best: top,
    size: index.size,
    unit,
    pool,
  };
}

/**
 * The query's product names: words typed as names (analyze.ts CASED_RE) that WordNet does not
 * have (data/words.txt) and at most PRODUCT_DF skills use anywhere — Docmosis, Blocknative,
 * iCIMS, U301. A user who names one names the tool; the task's words around it (a .docx, a
 * template, a PDF) are what to do with it.
 */
function productTerms(index: RoutingIndex, groups: QueryGroup[]): Set<string> {
  const out = new Set<string>();
  for (const group of groups) {
    const exact = group.variants[0];
    if (exact?.via !== 'exact' || !/^(?=[a-z0-9]*[a-z])[a-z0-9]{3,}$/u.test(group.surface)) continue;
    // Typed in small letters, a word is a product where it is a skill's whole name as one word
    // (activecampaign, hubspot): users type names so.
    if (isEnglishWord(group.surface) && !group.site) continue;
    if (!group.cased && !(group.lower && index.namesWhole(exact.term))) continue;
    // The word as typed, and a name it was glued or cut to (withBrands: perplexityai, highlevel).
    for (const variant of group.variants)
      if (variant.via === 'exact' && (index.postingsOf(variant.term)?.docs.length ?? 0) <= PRODUCT_DF)
        out.add(variant.term);
  }
  return out;
}

/**
 * True when one of the skill's names starts with a product the query names (productTerms), its
 * brand, or is two words one of which is (sap-successfactors).
 */
const namesProduct = (doc: SkillDoc, products: ReadonlySet<string>): boolean =>
  products.size > 0 &&
  doc.names.some(
    (phrase) =>
      products.has(phrase.terms[0]) ||
      (phrase.terms.length <= 2 && phrase.terms.some((t) => products.has(t))),
  );

/** The `n` best of `docs` by `score`, best first, without sorting them all. */
export function topDocs(docs: Iterable<number>, score: (d: number) => number, n: number): number[] {
  const top: number[] = [];
  const scores: number[] = [];
  for (const d of docs) {
    const s = score(d);
    if (top.length === n && s <= scores[n - 1]) continue;
    let at = top.length;
    while (at > 0 && scores[at - 1] < s) at--;
    scores.splice(at, 0, s);
    if (scores.length > n) scores.pop();
    top.splice(at, 0, d);
    if (top.length > n) top.pop();
  }
  return top;
}

/** How one query word matched one skill: the term, the route and the fields, for the score panel. */
export interface GroupEvidence {
  word: string;
  term: string;
  /** The matched variant as the expansion gave it ("rain" for 下雨). */
  shown: string;
  via: Via;
  fields: FieldName[];
  score: number;
}

/**
 * The skill holds the term only as a gloss of its own Chinese (lexicon.ts normalizes those).
 */
const glossOnly = (doc: SkillDoc, term: string): boolean => doc.fields.get(term) === FIELD.translation;

/**
 * A WordNet synonym or related word, or an embedding neighbour, of what the user typed (or of a
 * Chinese word's gloss). It meets a skill's own words, never the English the index glossed from
 * the skill's Chinese: such a round trip is two loose hops ("hand" → pass, "captured" ≈ seized,
 * 上课 "attend class" → form ← 表格), and it had an English request about cloud config meet a
 * Chinese role-play game.
 */
const looseHop = (variant: Variant): boolean =>
  variant.via === 'synonym' || variant.via === 'related' || variant.via === 'similar';

/** True when a skill holds a variant where matchQuery counts it (embedding neighbours: metadata only). */
export const holdsVariant = (doc: SkillDoc, variant: Variant): boolean =>
  !(looseHop(variant) && glossOnly(doc, variant.term)) &&
  (doc.tf.has(variant.term) || (variant.via !== 'similar' && doc.textTf.has(variant.term)));

/** The best-matching variant of each query group in one skill (none for groups it misses). */
export function explainMatch(index: RoutingIndex, doc: SkillDoc, match: QueryMatch): GroupEvidence[] {
  const out: GroupEvidence[] = [];
  const n = Math.max(1, index.size);
  for (const group of match.groups) {
    let best: GroupEvidence | null = null;
    for (const variant of group.variants) {
      if (!holdsVariant(doc, variant)) continue;
      const tf = index.normalizedTf(doc, variant.term);
      const df = index.metaDf(variant.term);
      if (!ownWord(variant) && df > COMMON_FLOOR && df / n > COMMON_EXPANSION) continue;
      const score = group.weight * variant.weight * termScore(index.idf(variant.term), tf);
      if (best && best.score >= score) continue;
      // A word only the body text holds is shown as a body match too.
      const bits = doc.fields.get(variant.term) ?? FIELD.body;
      const fields = (Object.keys(FIELD) as FieldName[]).filter((f) => (bits & FIELD[f]) !== 0);
      best = {
        word: group.surface,
        term: variant.term,
        shown: variant.shown,
        via: variant.via,
        fields,
        score,
      };
    }
    if (best) out.push(best);
  }
  return out;
}

/**
 * The share a name's first word stands for when no other skill's name has it: the brand of
 * icims-talent-cloud, flux-image or ethereum-history, which a user names alone ("on iCIMS",
 * "with FLUX"). Not the whole name: the rest says what the skill does with it.
 */
const BRAND_SHARE = 0.6;

/**
 * The largest share of a skill's name (or display name) whose words the query holds; a first
 * word only this skill's name has counts for BRAND_SHARE of it.
 */
export function nameShare(doc: SkillDoc, queryTerms: ReadonlySet<string>, index?: RoutingIndex): number {
  if (index && index.docs[doc.index] === doc) return index.nameShareOf(doc.index, queryTerms, BRAND_SHARE);
  let best = 0;
  for (const phrase of doc.names) {
    let hit = 0;
    for (const term of phrase.terms) if (queryTerms.has(term)) hit++;
    best = Math.max(best, hit / phrase.terms.length);
    const first = phrase.terms[0];
    if (index && phrase.terms.length > 1 && queryTerms.has(first) && index.namedBy(first).length === 1)
      best = Math.max(best, BRAND_SHARE);
  }
  return best;
}
