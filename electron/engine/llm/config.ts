import type { ModelProvider, ModelSettings, ModelTarget } from '../../../shared/contract';
import type { SecretStore } from './secrets';

/** Where each provider lives unless the settings say otherwise. */
export const DEFAULT_BASE_URLS: Record<Exclude<ModelProvider, 'openai-compatible'>, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

export const PROVIDER_LABELS: Record<ModelProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'The OpenAI-compatible server',
};

/** The model variables of the environment (DESIGN §4). Keys stay in `env` until used. */
export interface ModelEnv {
  baseURL: string | null;
  model: string | null;
  embeddingModel: string | null;
  /** `SKILLDECK_ARBITER=1`: the routing arbiter on (ModelSettings.arbiter), for the CLI and tests. */
  arbiter: boolean;
  /** True when settings choose no provider and these variables would configure one. */
  configures: boolean;
  /** `SKILLDECK_MODEL_STALL_SECONDS`: the stall limit over ModelSettings.stallSeconds; null when unset. */
  stallSeconds: number | null;
}

const trimmed = (value: string | undefined) => value?.trim() || null;

export function readModelEnv(env: NodeJS.ProcessEnv): ModelEnv {
  const baseURL = trimmed(env.OPENAI_BASE_URL)?.replace(/\/+$/, '') ?? null;
  const model = trimmed(env.SKILLDECK_MODEL);
  const stall = Number(trimmed(env.SKILLDECK_MODEL_STALL_SECONDS) ?? NaN);
  // OPENAI_API_KEY alone does not configure anything: it is in many shells for other tools.
  return {
    baseURL,
    model,
    embeddingModel: trimmed(env.SKILLDECK_EMBEDDING_MODEL),
    arbiter: /^(1|true|yes|on)$/i.test(trimmed(env.SKILLDECK_ARBITER) ?? ''),
    configures: !!(baseURL || model),
    stallSeconds: Number.isFinite(stall) && stall > 0 ? stall : null,
  };
}

/** One endpoint a chat, a model list or an embedding request goes to. */
export interface Endpoint extends ModelTarget {
  embeddingModel: string | null;
  /** Whether a send in the routing gray zone asks this model first (issue 10 §5). */
  arbiter: boolean;
  source: 'settings' | 'env';
}

/**
 * Settings win when they name a provider; otherwise `OPENAI_BASE_URL` / `SKILLDECK_MODEL`
 * configure the openai-compatible provider (DESIGN §4). `problem` says what is missing.
 */
export function effectiveEndpoint(
  settings: ModelSettings,
  env: ModelEnv,
): { endpoint: Endpoint | null; problem: string | null } {
  if (settings.provider) {
    const { provider } = settings;
    const baseURL =
      settings.baseURL ?? (provider === 'openai-compatible' ? null : DEFAULT_BASE_URLS[provider]);
    if (!baseURL)
      return { endpoint: null, problem: 'Enter the server’s base URL, e.g. http://127.0.0.1:11434/v1.' };
    const endpoint: Endpoint = {
      provider,
      baseURL,
      model: settings.model,
      embeddingModel: settings.embeddingModel,
      arbiter: settings.arbiter || env.arbiter,
      source: 'settings',
    };
    if (!settings.model && provider !== 'openai-compatible') return { endpoint, problem: 'Choose a model.' };
    return { endpoint, problem: null };
  }
  if (!env.configures) {
    return {
      endpoint: null,
      problem:
        'No model configured: choose a provider in Settings, or set OPENAI_BASE_URL and SKILLDECK_MODEL.',
    };
  }
  return {
    endpoint: {
      provider: 'openai-compatible',
      baseURL: env.baseURL ?? DEFAULT_BASE_URLS.openai,
      model: env.model,
      embeddingModel: env.embeddingModel,
      arbiter: settings.arbiter || env.arbiter,
      source: 'env',
    },
    problem: null,
  };
}

/** The secret-store name of an endpoint's key: one key per provider and host, never shared across hosts. */
export const keyName = (endpoint: ModelTarget) =>
  `model:${endpoint.provider}:${new URL(endpoint.baseURL).origin}`;

export interface EndpointKey {
  apiKey: string | undefined;
  keySource: 'stored' | 'env' | null;
  keyEnv: string | null;
  /** Why a stored key cannot be used here (keychain locked, file unreadable). */
  problem: string | null;
}

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * The key sent to `endpoint`: a stored one first (the user typed it for this endpoint), else
 * an env key, but only to the host that env names, so `OPENAI_API_KEY` never travels to,
 * say, a DeepSeek URL typed in Settings.
 */
export function endpointKey(
  endpoint: ModelTarget,
  env: NodeJS.ProcessEnv,
  secrets: SecretStore,
): EndpointKey {
  const stored = secrets.lookup(keyName(endpoint));
  if (stored.value) return { apiKey: stored.value, keySource: 'stored', keyEnv: null, problem: null };
  const [variable, home] =
    endpoint.provider === 'anthropic'
      ? ['ANTHROPIC_API_KEY', trimmed(env.ANTHROPIC_BASE_URL) ?? DEFAULT_BASE_URLS.anthropic]
      : ['OPENAI_API_KEY', trimmed(env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URLS.openai];
  const fromEnv = trimmed(env[variable]);
  if (fromEnv && sameOrigin(endpoint.baseURL, home)) {
    return { apiKey: fromEnv, keySource: 'env', keyEnv: variable, problem: null };
  }
  return { apiKey: undefined, keySource: null, keyEnv: null, problem: stored.problem };
}

/** OpenAI and Anthropic refuse every request without a key; local servers usually need none. */
export const needsKey = (provider: ModelProvider) => provider !== 'openai-compatible';
