import { generateText } from 'ai';
import type { ConnectionResult, ModelTarget } from '../../../shared/contract';
import { describeHttpError, describeModelError, redact, type ModelErrorInfo } from './errors';
import { authHeaders, createChatModel, type ProviderConfig } from './providers';

/** Test connection and the model list give up after this long: a button should not hang. */
export const CONNECTION_TIMEOUT_MS = 10_000;

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

const withTimeout = ({ signal, timeoutMs = CONNECTION_TIMEOUT_MS }: RequestOptions) =>
  signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);

export type ModelIdsResult = { ok: true; ids: string[] } | { ok: false; error: ModelErrorInfo };

/** `GET {baseURL}/models`: the ids the provider lists, sorted; never throws. */
export async function fetchModelIds(
  config: ProviderConfig,
  options: RequestOptions = {},
): Promise<ModelIdsResult> {
  const describe = (error: unknown) =>
    describeModelError(error, { baseURL: config.baseURL, hasKey: !!config.apiKey, apiKey: config.apiKey });
  // Anthropic pages its list (20 by default); one page of 1000 is every model it has.
  const url = `${config.baseURL}/models${config.provider === 'anthropic' ? '?limit=1000' : ''}`;
  try {
    const response = await fetch(url, { headers: authHeaders(config), signal: withTimeout(options) });
    const text = await response.text();
    if (!response.ok) {
      const error = describeHttpError(
        response.status,
        text,
        config.baseURL,
        !!config.apiKey,
        Object.fromEntries(response.headers),
      );
      return { ok: false, error: { ...error, message: redact(error.message, config.apiKey) } };
    }
    const data = (JSON.parse(text) as { data?: unknown }).data;
    if (!Array.isArray(data)) throw new Error('the model list has no `data` array');
    const ids = data.flatMap((item) => (typeof item?.id === 'string' ? [item.id as string] : []));
    return { ok: true, ids: ids.sort((a, b) => a.localeCompare(b)) };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

const statusOf = (error: ModelErrorInfo): ConnectionResult['status'] =>
  error.kind === 'unauthorized'
    ? 'unauthorized'
    : error.kind === 'unreachable' || error.kind === 'timeout'
      ? 'unreachable'
      : 'error';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A tiny real request to the endpoint: its model list where it has one (no tokens spent),
 * else a one-token completion. The result line says what happened in the user's terms.
 */
export async function testConnection(
  config: ProviderConfig,
  target: ModelTarget,
  options: RequestOptions = {},
): Promise<ConnectionResult> {
  const started = performance.now();
  const done = (result: Omit<ConnectionResult, 'latency_ms' | 'target'>): ConnectionResult => ({
    ...result,
    latency_ms: Math.round(performance.now() - started),
    target,
  });
  const listed = await fetchModelIds(config, options);
  if (listed.ok) {
    const { ids } = listed;
    const where = `Connected to ${config.baseURL}: ${plural(ids.length, 'model')}`;
    if (target.model) {
      const available = ids.includes(target.model);
      const message = available
        ? `${where}, including ${target.model}.`
        : `${where}, but ${target.model} is not among them.`;
      return done({ ok: true, status: 'connected', message, models: ids.length, modelAvailable: available });
    }
    const message =
      ids.length > 0
        ? `${where}; no model chosen, so ${ids[0]} will be used.`
        : `${where}; enter a model id to chat.`;
    return done({ ok: true, status: 'connected', message, models: ids.length, modelAvailable: null });
  }
  const { error } = listed;
  // A server without a model list (404/405/501) may still chat: ask it for one token.
  const noList = error.kind === 'http' && [404, 405, 501].includes(error.status ?? 0);
  if (!noList || !target.model) {
    return done({
      ok: false,
      status: statusOf(error),
      message: error.message,
      models: null,
      modelAvailable: null,
    });
  }
  try {
    await generateText({
      model: createChatModel(config, target.model),
      prompt: 'Reply with OK.',
      maxOutputTokens: 1,
      maxRetries: 0,
      abortSignal: withTimeout(options),
    });
    return done({
      ok: true,
      status: 'connected',
      message: `Connected to ${config.baseURL}: ${target.model} answered.`,
      models: null,
      modelAvailable: true,
    });
  } catch (caught) {
    const info = describeModelError(caught, {
      baseURL: config.baseURL,
      hasKey: !!config.apiKey,
      apiKey: config.apiKey,
    });
    return done({
      ok: false,
      status: statusOf(info),
      message: info.message,
      models: null,
      modelAvailable: null,
    });
  }
}
