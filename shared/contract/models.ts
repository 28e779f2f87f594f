import { z } from 'zod';

/**
 * Model providers (DESIGN §4, issue 8). API keys never cross this contract: the renderer
 * may write one (`models.setKey`) but only ever reads whether one is set and where from.
 */

/** `openai-compatible` covers any `/v1/chat/completions` server: Ollama, LM Studio, vLLM, llama.cpp, DeepSeek. */
export const ModelProvider = z.enum(['openai', 'anthropic', 'openai-compatible']);
export type ModelProvider = z.infer<typeof ModelProvider>;

/** An http(s) URL without a trailing slash (`http://127.0.0.1:11434/v1`). */
export const BaseUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), {
    message: 'Enter an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1',
  })
  .transform((value) => value.replace(/\/+$/, ''));

const ModelId = z.string().trim().min(1, 'Enter a model id').max(200);

/**
 * How long a model may send nothing before its step ends. Up to the HTTP client's own limit of
 * five minutes without a byte, which would end the wait anyway.
 */
const StallSeconds = z
  .number()
  .int('Enter whole seconds from 10 to 300.')
  .min(10, 'Enter whole seconds from 10 to 300.')
  .max(300, 'Enter whole seconds from 10 to 300.');

/** The `model` section of `settings.json`. No key here: keys live in the secret store. */
export const ModelSettings = z.object({
  /** null: none chosen here (the environment may still configure one, DESIGN §4). */
  provider: ModelProvider.nullable().default(null),
  /** Overrides the provider's default endpoint; required for `openai-compatible`. */
  baseURL: BaseUrl.nullable().default(null),
  /** The chat model id; null for `openai-compatible` means the server's first listed model. */
  model: ModelId.nullable().default(null),
  /** The `/v1/embeddings` model for semantic recall; null: no embeddings. */
  embeddingModel: ModelId.nullable().default(null),
  /**
   * Ask the chat model to settle a send whose route is unsure (issue 10 §5), before the turn:
   * one more request on such messages. Off by default — without it, a message just under T
   * still reaches the model, which sees the closest skills in the turn and may pick one.
   */
  arbiter: z.boolean().default(false),
  /**
   * Seconds a model may stay silent (no byte of its stream) before its step ends: a reasoning
   * model may think that long without a word. `SKILLDECK_MODEL_STALL_SECONDS` overrides it.
   */
  stallSeconds: StallSeconds.default(90),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

export const MODEL_SETTINGS_DEFAULTS: ModelSettings = {
  provider: null,
  baseURL: null,
  model: null,
  embeddingModel: null,
  arbiter: false,
  stallSeconds: 90,
};

/** A partial update of the model settings; `null` clears a field. */
export const ModelSettingsPatch = z
  .object({
    provider: ModelProvider.nullable(),
    baseURL: BaseUrl.nullable(),
    model: ModelId.nullable(),
    embeddingModel: ModelId.nullable(),
    arbiter: z.boolean(),
    stallSeconds: StallSeconds,
  })
  .partial()
  .strict();
export type ModelSettingsPatch = z.infer<typeof ModelSettingsPatch>;

/** The endpoint a chat would use now. */
export const ModelTarget = z.object({
  provider: ModelProvider,
  baseURL: z.string(),
  /** null when an `openai-compatible` server's first listed model will be used. */
  model: z.string().nullable(),
});
export type ModelTarget = z.infer<typeof ModelTarget>;

/** What `models.get` answers and `models.changed` carries. Never a key. */
export const ModelStatus = z.object({
  /** What `settings.json` holds. */
  settings: ModelSettings,
  /** Where the effective configuration comes from: settings, the environment (DESIGN §4), or nowhere. */
  source: z.enum(['settings', 'env']).nullable(),
  /** What a chat would talk to now; null when nothing is configured. */
  effective: ModelTarget.nullable(),
  /** Whether a key will be sent to the effective endpoint. */
  hasKey: z.boolean(),
  /** `stored`: written through `models.setKey`; `env`: read from `keyEnv`, used as is, never stored. */
  keySource: z.enum(['stored', 'env']).nullable(),
  /** The variable an env key comes from (`OPENAI_API_KEY`). */
  keyEnv: z.string().nullable(),
  /** Where `models.setKey` keeps a key: the OS keychain (Electron safeStorage) or a 0600 file. */
  keyStorage: z.enum(['keychain', 'file']),
  /** The model variables found in the environment; the key only as present or not. */
  env: z.object({
    baseURL: z.string().nullable(),
    model: z.string().nullable(),
    hasKey: z.boolean(),
    /** True when the environment would configure the model if settings chose no provider. */
    configures: z.boolean(),
    /** The stall limit `SKILLDECK_MODEL_STALL_SECONDS` sets over the setting; null when unset. */
    stallSeconds: z.number().nullable(),
  }),
  /** Whether the provider lists its models (`/v1/models`), for the model picker. */
  canListModels: z.boolean(),
  /** What keeps a chat from working, in a sentence; null when it can be tried. */
  problem: z.string().nullable(),
});
export type ModelStatus = z.infer<typeof ModelStatus>;

/** The outcome of `models.test`, with one line for the user. */
export const ConnectionResult = z.object({
  ok: z.boolean(),
  status: z.enum(['connected', 'unauthorized', 'unreachable', 'error', 'not_configured']),
  /** E.g. "Connected to http://127.0.0.1:11434/v1: 3 models." or "401: the key was refused by …". */
  message: z.string(),
  /** How many models the provider listed, when it lists them. */
  models: z.number().int().nullable(),
  /** Whether the configured model is among them; null when unknown. */
  modelAvailable: z.boolean().nullable(),
  latency_ms: z.number(),
  target: ModelTarget.nullable(),
});
export type ConnectionResult = z.infer<typeof ConnectionResult>;

/** The provider's model ids, for the model picker. */
export const ModelList = z.object({
  ok: z.boolean(),
  models: z.array(z.string()),
  /** Why the list is empty, when it is. */
  message: z.string().nullable(),
});
export type ModelList = z.infer<typeof ModelList>;

export const modelsRequests = {
  /** The model settings, whether a key is set and where from, and what the environment configures. */
  'models.get': { input: z.object({}).strict(), output: ModelStatus },
  /** Change provider, base URL or model ids; persisted in `settings.json`. */
  'models.update': { input: ModelSettingsPatch, output: ModelStatus },
  /** Store the key for the effective endpoint. Write-only: no method ever returns it. */
  'models.setKey': {
    input: z
      .object({
        key: z.string().trim().min(1, 'Enter a key').max(4096).regex(/^\S+$/, 'A key has no spaces'),
      })
      .strict(),
    output: ModelStatus,
  },
  /** Forget the stored key for the effective endpoint (an env key stays: it is not ours). */
  'models.clearKey': { input: z.object({}).strict(), output: ModelStatus },
  /** A tiny real request to the effective endpoint, with a clear result line. */
  'models.test': { input: z.object({}).strict(), output: ConnectionResult },
  /** The provider's models (`/v1/models`). */
  'models.list': { input: z.object({}).strict(), output: ModelList },
} as const;

export const modelsEvents = {
  /** Model settings or key presence changed. Never carries a key. */
  'models.changed': ModelStatus,
} as const;
