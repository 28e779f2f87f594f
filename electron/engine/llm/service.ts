import { embedMany, type LanguageModel } from 'ai';
import type {
  ConnectionResult,
  ModelList,
  ModelSettingsPatch,
  ModelStatus,
  ModelTarget,
} from '../../../shared/contract';
import { EngineError } from '../errors';
import type { EngineEvents } from '../events';
import type { SettingsStore } from '../settings';
import {
  effectiveEndpoint,
  endpointKey,
  keyName,
  needsKey,
  PROVIDER_LABELS,
  readModelEnv,
  type Endpoint,
  type EndpointKey,
} from './config';
import { fetchModelIds, testConnection, type RequestOptions } from './connection';
import { describeModelError, type ModelErrorInfo } from './errors';
import { createChatModel, createEmbeddingModel, type ProviderConfig } from './providers';
import type { SecretStore } from './secrets';

export interface ModelServiceDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  events: EngineEvents;
  /** Where `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `SKILLDECK_MODEL` are read; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** What a resolved model talks to, for the UI, events and logs. Never the key. */
export interface ModelDescription extends ModelTarget {
  model: string;
  source: 'settings' | 'env';
  keySource: EndpointKey['keySource'];
}

export type ResolvedModel =
  | {
      ok: true;
      /** Pass to `streamText` / `generateText`. */
      model: LanguageModel;
      description: ModelDescription;
      /** A failed call's kind and one clear sentence, with this endpoint's URL and key redacted. */
      describeError(error: unknown): ModelErrorInfo;
    }
  | { ok: false; reason: string };

export type EmbedResult =
  { ok: true; vectors: number[][]; model: string; tokens: number } | { ok: false; reason: string };

interface Current {
  endpoint: Endpoint | null;
  problem: string | null;
  key: EndpointKey;
}

const NO_KEY: EndpointKey = { apiKey: undefined, keySource: null, keyEnv: null, problem: null };

/**
 * Model settings, keys and the AI SDK models built from them (DESIGN §4). Keys go in
 * through `setKey` and out only to the provider's HTTP requests: never into a status, an
 * event, an error message or a log.
 */
export class ModelService {
  private readonly env: NodeJS.ProcessEnv;
  /** The first listed model of a compatible server with none chosen, per base URL. */
  private readonly discovered = new Map<string, string>();

  constructor(private readonly deps: ModelServiceDeps) {
    this.env = deps.env ?? process.env;
  }

  private current(): Current {
    const { endpoint, problem } = effectiveEndpoint(this.deps.settings.get().model, readModelEnv(this.env));
    return { endpoint, problem, key: endpoint ? endpointKey(endpoint, this.env, this.deps.secrets) : NO_KEY };
  }

  private config({ endpoint, key }: Current & { endpoint: Endpoint }): ProviderConfig {
    return { provider: endpoint.provider, baseURL: endpoint.baseURL, apiKey: key.apiKey };
  }

  /** What keeps a chat from working, in a sentence; null when it can be tried. */
  private problemOf({ endpoint, problem, key }: Current): string | null {
    if (problem || !endpoint) return problem;
    if (key.apiKey) return null;
    // A key the user stored but this process cannot read matters even where keys are optional.
    if (key.problem) return key.problem;
    return needsKey(endpoint.provider) ? `${PROVIDER_LABELS[endpoint.provider]} needs an API key.` : null;
  }

  /** What `models.get` answers: settings, key presence and source, the environment's part. */
  status(): ModelStatus {
    const current = this.current();
    const { endpoint, key } = current;
    const env = readModelEnv(this.env);
    return {
      settings: this.deps.settings.get().model,
      source: endpoint?.source ?? null,
      effective: endpoint && {
        provider: endpoint.provider,
        baseURL: endpoint.baseURL,
        model: endpoint.model,
      },
      hasKey: !!key.apiKey,
      keySource: key.keySource,
      keyEnv: key.keyEnv,
      keyStorage: this.deps.secrets.storage,
      env: {
        baseURL: env.baseURL,
        model: env.model,
        hasKey: !!this.env.OPENAI_API_KEY?.trim(),
        configures: env.configures,
        stallSeconds: env.stallSeconds,
      },
      canListModels: endpoint !== null,
      problem: this.problemOf(current),
    };
  }

  private announce(settingsChanged: boolean): ModelStatus {
    const status = this.status();
    if (settingsChanged) this.deps.events.emit('settings.changed', this.deps.settings.get());
    this.deps.events.emit('models.changed', status);
    return status;
  }

  /** Change provider, base URL or model ids; persisted, announced. */
  update(patch: ModelSettingsPatch): ModelStatus {
    this.deps.settings.updateModel(patch);
    this.discovered.clear();
    return this.announce(true);
  }

  /** Store `key` for the effective endpoint (one key per provider and host). */
  setKey(key: string): ModelStatus {
    const { endpoint } = this.current();
    if (!endpoint)
      throw new EngineError('invalid_params', 'Choose a provider (and its base URL) before storing a key.');
    this.deps.secrets.set(keyName(endpoint), key);
    return this.announce(false);
  }

  /** Forget the stored key for the effective endpoint; an env key is not ours to forget. */
  clearKey(): ModelStatus {
    const { endpoint } = this.current();
    if (endpoint) this.deps.secrets.delete(keyName(endpoint));
    return this.announce(false);
  }

  /** A tiny real request to the effective endpoint, with one clear result line. */
  async test(options: RequestOptions = {}): Promise<ConnectionResult> {
    const current = this.current();
    const { endpoint } = current;
    const problem = this.problemOf(current);
    if (!endpoint || problem) {
      return {
        ok: false,
        status: 'not_configured',
        message: problem ?? 'No model configured.',
        models: null,
        modelAvailable: null,
        latency_ms: 0,
        target: endpoint && { provider: endpoint.provider, baseURL: endpoint.baseURL, model: endpoint.model },
      };
    }
    return testConnection(this.config({ ...current, endpoint }), endpoint, options);
  }

  /** The provider's model ids, for the model picker. */
  async list(options: RequestOptions = {}): Promise<ModelList> {
    const current = this.current();
    if (!current.endpoint) return { ok: false, models: [], message: current.problem };
    const listed = await fetchModelIds(this.config({ ...current, endpoint: current.endpoint }), options);
    return listed.ok
      ? { ok: true, models: listed.ids, message: listed.ids.length ? null : 'The server lists no models.' }
      : { ok: false, models: [], message: listed.error.message };
  }

  /**
   * The AI SDK model a chat should use now, or why there is none. A compatible server with
   * no model chosen gets its first listed model (asked once per base URL).
   */
  async resolve(options: RequestOptions = {}): Promise<ResolvedModel> {
    const current = this.current();
    const { endpoint, key } = current;
    const problem = this.problemOf(current);
    if (!endpoint || problem) return { ok: false, reason: problem ?? 'No model configured.' };
    const config = this.config({ ...current, endpoint });
    let modelId = endpoint.model ?? this.discovered.get(endpoint.baseURL);
    if (!modelId) {
      const listed = await fetchModelIds(config, options);
      if (!listed.ok) return { ok: false, reason: listed.error.message };
      modelId = listed.ids[0];
      if (!modelId)
        return { ok: false, reason: `${endpoint.baseURL} lists no models; choose a model in Settings.` };
      this.discovered.set(endpoint.baseURL, modelId);
    }
    const context = { baseURL: endpoint.baseURL, hasKey: !!key.apiKey, apiKey: key.apiKey };
    return {
      ok: true,
      model: createChatModel(config, modelId),
      description: {
        provider: endpoint.provider,
        baseURL: endpoint.baseURL,
        model: modelId,
        source: endpoint.source,
        keySource: key.keySource,
      },
      describeError: (error) => describeModelError(error, context),
    };
  }

  /** How long a model may send nothing before its step ends: the environment's limit, else the setting's. */
  stallMs(): number {
    return (readModelEnv(this.env).stallSeconds ?? this.deps.settings.get().model.stallSeconds) * 1000;
  }

  /** Whether a send in the routing gray zone asks the model first (issue 10 §5). */
  arbiterEnabled(): boolean {
    return this.current().endpoint?.arbiter ?? false;
  }

  /** Vectors for `texts` from the endpoint's `/v1/embeddings` (semantic recall); never throws. */
  async embed(texts: string[], options: RequestOptions = {}): Promise<EmbedResult> {
    const current = this.current();
    const { endpoint, key } = current;
    if (!endpoint) return { ok: false, reason: current.problem ?? 'No model configured.' };
    if (!endpoint.embeddingModel) {
      return {
        ok: false,
        reason: 'No embedding model configured (Settings → Model, or SKILLDECK_EMBEDDING_MODEL).',
      };
    }
    const model = createEmbeddingModel(this.config({ ...current, endpoint }), endpoint.embeddingModel);
    if (!model)
      return { ok: false, reason: `${PROVIDER_LABELS[endpoint.provider]} has no embeddings endpoint.` };
    // The caller's timeout bounds the whole call, retry included: a send waits on it (issue 10 §4).
    const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    try {
      const { embeddings, usage } = await embedMany({
        model,
        values: texts,
        maxRetries: 1,
        abortSignal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
      });
      const problem = unusableVectors(embeddings, texts.length);
      if (problem) return { ok: false, reason: `${endpoint.baseURL}/embeddings answered ${problem}.` };
      return { ok: true, vectors: embeddings, model: endpoint.embeddingModel, tokens: usage.tokens };
    } catch (error) {
      const context = { baseURL: endpoint.baseURL, hasKey: !!key.apiKey, apiKey: key.apiKey };
      return { ok: false, reason: describeModelError(error, context).message };
    }
  }
}

/**
 * What is wrong with the vectors a server sent for `count` texts, or null: one vector per text,
 * all of one length, every number finite. Fewer vectors left a skill without one (the route
 * crashed), and vectors of different lengths gave cosines of their common prefix.
 */
function unusableVectors(vectors: number[][], count: number): string | null {
  if (vectors.length !== count) return `${vectors.length} vectors for ${count} texts`;
  const length = vectors[0]?.length ?? 0;
  if (length === 0) return 'empty vectors';
  if (vectors.some((v) => v.length !== length)) return 'vectors of different lengths';
  if (vectors.some((v) => v.some((x) => !Number.isFinite(x))))
    return 'vectors with numbers that are not finite';
  return null;
}
