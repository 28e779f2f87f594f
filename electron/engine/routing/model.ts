import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generateText } from 'ai';
import type { RouteResult } from '../../../shared/contract';
import type { EmbedResult, ResolvedModel } from '../llm';
import type { RequestOptions } from '../llm';
import { tokenCount } from '../llm/tokenCount';
import type { RoutingIndex, SkillDoc } from './lexicon';
import type { SemanticRecall } from './recall';
import { readArbiterAnswer } from './arbiterAnswer';

/** What the router needs from the configured model (ModelService implements it). */
export interface RoutingModel {
  embed(texts: string[], options?: RequestOptions): Promise<EmbedResult>;
  resolve(options?: RequestOptions): Promise<ResolvedModel>;
  /** Whether the arbiter is on (Settings → Model, or SKILLDECK_ARBITER=1). */
  arbiterEnabled(): boolean;
}

/** Issue 10 §4–5 timings: a send waits this long for a query vector, this long for the arbiter. */
export const EMBED_TIMEOUT_MS = 1500;
export const ARBITER_TIMEOUT_MS = 8000;
/** The arbiter is asked when the best score is this close to T, or the best two this close. */
export const ARBITER_BAND = 0.08;
export const ARBITER_MARGIN = 0.03;
const ARBITER_CANDIDATES = 5;
const BATCH = 64;

/** A skill's routing text: what its embedding is of, and what its cache key hashes. */
const routingText = (doc: SkillDoc) =>
  [doc.name, doc.metadata.description, doc.metadata.whenToUse ?? '', doc.metadata.triggers.join(', ')].join(
    '\n',
  );
const hashOf = (text: string) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);

const cosine = (a: readonly number[], b: readonly number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

/** What a model added to one route, for the route event (tokens it cost included). */
export interface ModelAssist {
  embedding?: { model: string; tokens: number; similarity: Record<string, number> };
  arbiter?: {
    model: string;
    choice: string | null;
    tokens_in: number;
    tokens_out: number;
    latency_ms: number;
    /** `chose` / `none`: applied; `unclear` (no listed name, no "none") and `failed`: the local route stands. */
    outcome: ArbiterOutcome;
    /** An unclear answer as it came (cut at 200 characters), or why the call failed. */
    note?: string;
  };
}

export type ArbiterOutcome = 'chose' | 'none' | 'unclear' | 'failed';

/** Whether the arbiter's answer decides the route (an unclear or failed one leaves it standing). */
export const arbiterJudged = (arbiter: { outcome?: ArbiterOutcome } | undefined): boolean =>
  !!arbiter && (arbiter.outcome === undefined || arbiter.outcome === 'chose' || arbiter.outcome === 'none');

/**
 * Semantic recall and the arbiter over the configured model (issue 10 §4–5). Skill vectors
 * are cached per content hash and embedding model in `$SKILLDECK_HOME/cache/`; the live
 * preview never calls the network, a send does with short timeouts, and a failure or a
 * timeout leaves the local result standing.
 */
export class ModelRouting {
  private vectors = new Map<string, number[]>();
  private loaded = false;

  constructor(private readonly deps: { home: string; model: RoutingModel }) {}

  private get file(): string {
    return path.join(this.deps.home, 'cache', 'route-embeddings.json');
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    try {
      const json = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, number[]>;
      for (const [key, vector] of Object.entries(json))
        if (Array.isArray(vector)) this.vectors.set(key, vector);
    } catch {
      // No cache yet, or a damaged one: vectors are fetched again.
    }
  }

  private save(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.vectors)));
    fs.renameSync(tmp, this.file);
  }

  /**
   * Cached vectors of every routable skill for `model`; fetches the missing ones. With `length`,
   * a cached vector of another length is missing too (the server behind the model name changed)
   * and a fetched one of another length fails the lot: cosines need vectors of one length.
   */
  async skillVectors(
    index: RoutingIndex,
    model: string | null,
    options: RequestOptions,
    length?: number,
  ): Promise<Map<number, number[]> | null> {
    this.load();
    const out = new Map<number, number[]>();
    const missing: SkillDoc[] = [];
    const fits = (v: number[] | undefined): v is number[] =>
      Array.isArray(v) && (length === undefined || v.length === length);
    for (const doc of index.docs) {
      const cached = model ? this.vectors.get(`${model}:${hashOf(routingText(doc))}`) : undefined;
      if (fits(cached)) out.set(doc.index, cached);
      else missing.push(doc);
    }
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const result = await this.deps.model.embed(batch.map(routingText), options);
      if (!result.ok || !result.vectors.every(fits)) return null;
      batch.forEach((doc, j) => {
        this.vectors.set(`${result.model}:${hashOf(routingText(doc))}`, result.vectors[j]);
        out.set(doc.index, result.vectors[j]);
      });
    }
    if (missing.length > 0) this.save();
    return out;
  }

  /**
   * Semantic recall for one query (a send): the query's vector against the cached skill
   * vectors, top k by cosine. Null when embeddings are off, failing or too slow.
   */
  async recallFor(
    index: RoutingIndex,
    query: string,
    timeoutMs = EMBED_TIMEOUT_MS,
  ): Promise<{ recall: SemanticRecall; assist: NonNullable<ModelAssist['embedding']> } | null> {
    const first = await this.deps.model.embed([query], { timeoutMs });
    if (!first.ok) return null;
    const [vector] = first.vectors;
    const skills = await this.skillVectors(index, first.model, { timeoutMs: timeoutMs * 4 }, vector.length);
    if (!skills) return null;
    const similarity: Record<string, number> = {};
    const ranked = [...skills].map(([d, v]) => ({ d, sim: cosine(vector, v) })).sort((a, b) => b.sim - a.sim);
    for (const { d, sim } of ranked.slice(0, 10))
      similarity[index.docs[d].id] = Math.round(sim * 1000) / 1000;
    // A skill whose vector shares nothing with the query's (cosine 0 or less: a query of no
    // words, a degenerate server) is no match; top k took such skills to fill its places.
    const recall: SemanticRecall = (_instruction, k, accept) =>
      ranked
        .filter(({ sim }) => sim > 0)
        .map(({ d }) => index.docs[d])
        .filter(accept)
        .slice(0, k);
    return { recall, assist: { model: first.model, tokens: first.tokens, similarity } };
  }

  /**
   * The arbiter (issue 10 §5): when the best candidates sit near T or near each other, the
   * chat model chooses among at most five — given only names and descriptions — or none.
   * Null when the arbiter is off or no model is configured, the case is clear, or the model
   * fails or is too slow. Off by default: it is one more request before the turn, and a model
   * that answers the turn already sees the closest skills below T (chat/offer.ts).
   */
  async arbitrate(
    result: RouteResult,
    index: RoutingIndex,
    timeoutMs = ARBITER_TIMEOUT_MS,
    heldBack: (doc: SkillDoc) => string | null = () => null,
  ): Promise<ModelAssist['arbiter'] | null> {
    // A runner-up the cover dropped as an overlap does the same job as the pick (and stays its
    // fallback): choosing between the two is not worth a model call on every such send.
    if (!this.deps.model.arbiterEnabled()) return null;
    // A skill held back from automatic selection (flagged instructions) is no model's to pick either.
    const pool = result.candidates.filter((c) => {
      if (c.status !== 'selected' && c.status !== 'below_threshold') return false;
      const doc = index.byId.get(c.id);
      return doc !== undefined && !heldBack(doc);
    });
    if (pool.length === 0 || result.candidates.some((c) => c.source === 'forced')) return null;
    const [best, second] = pool;
    // Only where the local decision is genuinely unsure: a best candidate just under T (plain
    // chat otherwise), or two over T within a hair of each other. A clear pick costs no call.
    const T = result.threshold;
    const gray =
      (best.score < T && T - best.score <= ARBITER_BAND) ||
      (second !== undefined && second.score >= T && best.score - second.score <= ARBITER_MARGIN);
    if (!gray) return null;
    const resolved = await this.deps.model.resolve({ timeoutMs });
    if (!resolved.ok) return null;
    const choices = pool.slice(0, ARBITER_CANDIDATES);
    const list = choices.map(
      (c, i) => `${i + 1}. ${c.name}: ${(index.byId.get(c.id)?.metadata.description ?? '').slice(0, 300)}`,
    );
    const started = performance.now();
    const asked = {
      model: resolved.description.model,
      choice: null,
      tokens_in: 0,
      tokens_out: 0,
      latency_ms: 0,
    };
    try {
      const { text, usage } = await generateText({
        model: resolved.model,
        abortSignal: AbortSignal.timeout(timeoutMs),
        // One call: a retry would double the wait of a send and the tokens it costs.
        maxRetries: 0,
        system:
          'You route a user request to at most one skill. Answer with the exact skill name from the list, or with "none" when no skill fits. Answer with the name only.',
        prompt: `Request: ${result.query}\n\nSkills:\n${list.join('\n')}`,
      });
      const answer = readArbiterAnswer(
        text,
        choices.map((c) => c.name),
      );
      return {
        ...asked,
        choice: answer.kind === 'skill' ? answer.name : null,
        tokens_in: tokenCount(usage.inputTokens) ?? 0,
        tokens_out: tokenCount(usage.outputTokens) ?? 0,
        latency_ms: Math.round(performance.now() - started),
        // An answer that is neither a listed name nor "none": the local result stands.
        outcome: answer.kind === 'skill' ? 'chose' : answer.kind,
        ...(answer.kind === 'unclear' ? { note: text.trim().slice(0, 200) } : {}),
      };
    } catch (error) {
      const latency = Math.round(performance.now() - started);
      const late = error instanceof DOMException && error.name === 'TimeoutError';
      const why = late
        ? `no answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`
        : resolved.describeError(error).message;
      return { ...asked, latency_ms: latency, outcome: 'failed', note: why.slice(0, 300) };
    }
  }
}

/** The local route, its reason saying the arbiter was asked and why its answer did not count. */
export function arbiterIgnored(
  result: RouteResult,
  arbiter: NonNullable<ModelAssist['arbiter']>,
): RouteResult {
  const why =
    arbiter.outcome === 'failed'
      ? `could not answer (${arbiter.note ?? 'the call failed'})`
      : 'answered with no listed skill and not "none"';
  const routing_reason = `${result.plan.routing_reason} The model arbiter (${arbiter.model}) ${why}; the local result stands.`;
  return { ...result, plan: { ...result.plan, routing_reason } };
}

/**
 * The route with the arbiter's choice applied: its pick becomes the only selection (or none),
 * recorded as `arbiter` evidence and in the plan's reason.
 */
export function applyArbiter(result: RouteResult, arbiter: NonNullable<ModelAssist['arbiter']>): RouteResult {
  const candidates = result.candidates.map((c) => {
    if (c.name === arbiter.choice)
      return {
        ...c,
        status: 'selected' as const,
        reason: `chosen by the model arbiter (${arbiter.model}) at score ${c.score.toFixed(2)}`,
        evidence: [{ kind: 'arbiter' as const, query: result.query, matched: c.name }, ...(c.evidence ?? [])],
      };
    if (c.status !== 'selected') return c;
    return {
      ...c,
      status: 'below_threshold' as const,
      reason: arbiter.choice
        ? `the model arbiter chose ${arbiter.choice}`
        : `the model arbiter (${arbiter.model}) chose no skill`,
    };
  });
  const chosen = candidates.find((c) => c.name === arbiter.choice);
  const plan = chosen
    ? {
        ...result.plan,
        skills: [chosen.name],
        skill_ids: [chosen.id],
        primary: chosen.name,
        primary_id: chosen.id,
        parallel_groups: [[chosen.name]],
        estimated_cost: chosen.cost_hint,
        routing_reason: `${chosen.name} chosen by the model arbiter (${arbiter.model}) among ${candidates.length} near candidates.`,
      }
    : {
        ...result.plan,
        skills: [],
        skill_ids: [],
        primary: null,
        primary_id: null,
        parallel_groups: [],
        estimated_cost: 'none' as const,
        routing_reason: `The model arbiter (${arbiter.model}) chose no skill; plain chat.`,
      };
  candidates.sort((a, b) => (a.name === arbiter.choice ? -1 : b.name === arbiter.choice ? 1 : 0));
  return { ...result, candidates, plan };
}
