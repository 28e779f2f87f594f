import { APICallError, RetryError } from 'ai';
import { MAX_HOLD_SECONDS, retryAfterSeconds, waitWords } from './retryAfter';

/** What went wrong talking to a model, sorted the way the user acts on it. */
export type ModelErrorKind =
  | 'unauthorized' // 401/403: the key
  | 'unreachable' // nothing answered at the base URL
  | 'dropped' // the connection closed mid-answer
  | 'timeout'
  | 'aborted' // Stop, or the caller's signal
  | 'http' // any other HTTP error status
  | 'error';

export interface ModelErrorInfo {
  kind: ModelErrorKind;
  /** One sentence for the user, the key redacted. */
  message: string;
  /** The HTTP status, when the server answered with one. */
  status?: number;
  /**
   * The server asked to be left alone for a while (a 429, or a 5xx with Retry-After, as an
   * overloaded 503 sends): asked again at once, it fails the same way.
   */
  waitAsked?: true;
  /** How long the server asked to be left alone (Retry-After and its kin), when it said. */
  retryAfterMs?: number;
}

/** Whether the same endpoint, asked again at once, answers the same: the key, no server, or a wait asked for. */
export const failsAgainAtOnce = (info: Partial<ModelErrorInfo>): boolean =>
  info.kind === 'unauthorized' || info.kind === 'unreachable' || info.status === 429 || !!info.waitAsked;

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Every error in a `cause` chain (bounded: chains can be cyclic). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 8; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
}

const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
};

const nameOf = (error: unknown) =>
  error instanceof Error || error instanceof DOMException ? error.name : '';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * What an HTML error page says, as one line: its title (or first heading, or its text, cut),
 * said to be a page. A proxy or web server in front of the model (nginx's 502, Cloudflare's
 * 524, a captive portal) answers with one; its markup would otherwise be the message.
 */
export function htmlPage(body: string): string | undefined {
  if (!/^\s*(?:<!doctype html|<html|<head|<body|<center|<h1|<title)/i.test(body)) return undefined;
  const text = (html: string) =>
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
      .replace(/\s+/g, ' ')
      .trim();
  const named = [/<title[^>]*>([\s\S]*?)<\/title>/i, /<h1[^>]*>([\s\S]*?)<\/h1>/i]
    .map((pattern) => text(pattern.exec(body)?.[1] ?? ''))
    .find(Boolean);
  const said = named ?? text(body);
  const cut = said.length > 160 ? `${said.slice(0, 160)}…` : said;
  return cut ? `an HTML page: "${cut}"` : 'an HTML page';
}

/** The server's own words from an OpenAI or Anthropic error body, when it sent one. */
function serverMessage(body: string | undefined, fallback: string): string {
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
      const message =
        typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
      if (typeof message === 'string' && message.trim()) return message.trim();
    } catch {
      const page = htmlPage(body);
      if (page) return page;
      if (body.trim() && body.length < 300) return body.trim().replace(/\s+/g, ' ');
    }
  }
  return fallback;
}

/**
 * One sentence for an HTTP error status from `url`, the way `describeModelError` words it;
 * also used for plain `fetch` calls (`/v1/models`) that have no `APICallError`.
 */
export function describeHttpError(
  status: number,
  body: string | undefined,
  url: string,
  hasKey: boolean,
  headers: Record<string, string | undefined> = {},
): ModelErrorInfo {
  const said = serverMessage(body, '');
  const tail = said ? ` (${said})` : '';
  if (status === 401 || status === 403) {
    const what = hasKey
      ? `${status}: the key was refused by ${url}`
      : `${status}: ${url} wants an API key and none is set`;
    return { kind: 'unauthorized', status, message: `${what}${tail}.` };
  }
  if (status === 404)
    return {
      kind: 'http',
      status,
      message: `404 from ${url}${tail}: ${baseUrlHint(url) ?? 'check the base URL and the model id'}.`,
    };
  const seconds = retryAfterSeconds(headers);
  const wait = seconds === undefined ? undefined : waitWords(seconds);
  // The window holds Retry back until then (a countdown), so it counts from now; a wait of days
  // (a spent quota, a server's garbage) holds nothing back: the user judges when to try again.
  const asked = seconds === undefined || seconds > MAX_HOLD_SECONDS ? {} : { retryAfterMs: seconds * 1000 };
  if (status === 429)
    return {
      kind: 'http',
      status,
      message: `429: ${url} is rate-limiting requests${tail}; ${wait ?? 'wait and retry'}.`,
      waitAsked: true,
      ...asked,
    };
  if (status >= 500 && (status === 529 || overloaded(jsonOf(body)) || /\boverloaded\b/i.test(said)))
    return {
      kind: 'http',
      status,
      message: overloadedMessage(`${status}: the server at ${url}`, said, wait),
      waitAsked: true,
      ...asked,
    };
  if (status >= 500)
    return {
      kind: 'http',
      status,
      message: `${status}: the server at ${url} failed${tail}${wait ? `; ${wait}` : ''}.`,
      ...(wait ? { waitAsked: true as const, ...asked } : {}),
    };
  return { kind: 'http', status, message: `${status} from ${url}${tail}.` };
}

/**
 * What a base URL that drew a 404 most likely lacks: a bare host (no /v1, which OpenAI's and most
 * compatible servers put their API under), or the whole endpoint path (the provider adds
 * /chat/completions itself). Undefined when it looks right, or is no URL.
 */
function baseUrlHint(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const pathname = parsed.pathname.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(pathname))
    return `the base URL ends before /chat/completions (${parsed.origin}${pathname.replace(/\/chat\/completions$/, '')})`;
  if (pathname === '')
    return `the base URL has no path, and most OpenAI-compatible servers want it to end in /v1 (${parsed.origin}/v1)`;
  return undefined;
}

/**
 * "… is overloaded; wait a little and retry": the server's words only when they add to that
 * (Anthropic's are "Overloaded"). Asked again at once, it is overloaded still, as a 429 is limited.
 */
function overloadedMessage(who: string, said: string, wait?: string): string {
  const tail = said && !/^overloaded\.?$/i.test(said) ? ` (${said})` : '';
  return `${who} is overloaded${tail}; ${wait ?? 'wait a little and retry'}.`;
}

const jsonOf = (text: string | undefined): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
};

/** A code, type or status that says the server is overloaded (Anthropic's 529 `overloaded_error`, relayed by gateways too). */
const OVERLOADED = /^(?:529|overloaded|overloaded_error|server_overloaded)$/i;

/** Whether `error` (a server's error event or error body, a plain object) says the server is overloaded. */
export function overloaded(error: unknown): boolean {
  const event = errorEvent(error);
  return [event?.code, event?.type, event?.status].some(
    (v) => (typeof v === 'number' || typeof v === 'string') && OVERLOADED.test(String(v)),
  );
}

/** A code, type or status that says an error event is a rate limit (OpenRouter, Gemini, OpenAI, Anthropic). */
const RATE_LIMITED =
  /^(?:429|rate_limit_exceeded|rate_limit_error|rate_limited|too_many_requests|resource_exhausted)$/i;

type ErrorEvent = { message?: unknown; code?: unknown; type?: unknown; status?: unknown; metadata?: unknown };

/** The `error` object of a server's error event, when `error` is one (a plain object, not an Error). */
function errorEvent(error: unknown): ErrorEvent | undefined {
  if (typeof error !== 'object' || error === null || error instanceof Error) return undefined;
  const inner = (error as { error?: unknown }).error;
  return (typeof inner === 'object' && inner !== null ? inner : error) as ErrorEvent;
}

/**
 * When `error` (a server's error event or error body, a plain object) says it is a rate limit, the
 * headers it carries (OpenRouter copies the upstream's rate-limit headers into `metadata.headers`);
 * undefined when it is no rate limit. A 200 that says so (in its stream, or as its JSON body) is
 * then answered as the HTTP 429 it stands for.
 */
export function rateLimitHeaders(error: unknown): Record<string, string> | undefined {
  const event = errorEvent(error);
  const said = [event?.code, event?.type, event?.status].some(
    (v) => (typeof v === 'number' || typeof v === 'string') && RATE_LIMITED.test(String(v)),
  );
  if (!event || !said) return undefined;
  const headers = (event.metadata as { headers?: unknown } | undefined)?.headers;
  if (typeof headers !== 'object' || headers === null) return {};
  return Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) =>
      typeof v === 'string' || typeof v === 'number' ? [[k, String(v)]] : [],
    ),
  );
}

export interface DescribeContext {
  /** The endpoint's base URL, named in the message. */
  baseURL: string;
  /** Whether a key was sent: a 401 then means it was refused, not missing. */
  hasKey: boolean;
  /** Removed from the message wherever a server echoed it. */
  apiKey?: string;
}

/** Replace every occurrence of `secret` (and of its long prefixes some servers echo) with `***`. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  let result = text.split(secret).join('***');
  // OpenAI echoes keys as `sk-abc***xyz`: take out any 8+ character prefix that leaked too.
  for (let length = Math.min(secret.length - 1, 24); length >= 8; length -= 1) {
    result = result.split(secret.slice(0, length)).join('***');
  }
  return result;
}

/**
 * Turns whatever a model call threw (AI SDK `APICallError`, `RetryError`, fetch failures,
 * aborts, a stream dropped mid-way) into a kind and one clear sentence, the key redacted.
 * The agent loop uses it for a turn's error; `testConnection` for its result line.
 */
export function describeModelError(error: unknown, context: DescribeContext): ModelErrorInfo {
  const info = describeUnredacted(RetryError.isInstance(error) ? error.lastError : error, context);
  return { ...info, message: redact(info.message, context.apiKey) };
}

function describeUnredacted(error: unknown, { baseURL, hasKey }: DescribeContext): ModelErrorInfo {
  const chain = causes(error);
  if (chain.some((e) => nameOf(e) === 'TimeoutError')) {
    return { kind: 'timeout', message: `${baseURL} did not answer in time.` };
  }
  // undici's own limits: the server took the request, then sent nothing (more) for minutes.
  const quiet = chain
    .map(codeOf)
    .find((c) => c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT');
  if (quiet === 'UND_ERR_HEADERS_TIMEOUT')
    return {
      kind: 'timeout',
      message: `${baseURL} sent no answer in time (it took the request, then went quiet).`,
    };
  if (quiet)
    return {
      kind: 'timeout',
      message: `${baseURL} stopped sending mid-answer and sent nothing more in time.`,
    };
  if (chain.some((e) => nameOf(e) === 'AbortError' || nameOf(e) === 'ResponseAborted')) {
    return { kind: 'aborted', message: 'Stopped.' };
  }
  const api = chain.find((e) => APICallError.isInstance(e));
  if (api && api.statusCode !== undefined && api.statusCode >= 400) {
    return describeHttpError(api.statusCode, api.responseBody, baseURL, hasKey, api.responseHeaders);
  }
  const network = chain
    .map(codeOf)
    .find((code) => code && (code in NETWORK_CODES || code === 'UND_ERR_SOCKET'));
  // A 200 whose body broke off: the answer had started (undici: "terminated", "other side closed").
  if (api?.statusCode === 200 || network === 'UND_ERR_SOCKET') {
    const detail = chain
      .map((e) => (e as Error)?.message)
      .find((m) => m && m !== 'terminated' && !m.startsWith('Failed'));
    return {
      kind: 'dropped',
      message: `The connection to ${baseURL} dropped mid-answer${detail ? ` (${detail})` : ''}.`,
    };
  }
  if (network) {
    return { kind: 'unreachable', message: `Could not reach ${baseURL}: ${NETWORK_CODES[network]}.` };
  }
  if (api) {
    const why = api.message.replace(/^Cannot connect to API: /, '');
    return { kind: 'unreachable', message: `Could not reach ${baseURL}: ${why}.` };
  }
  // Plain fetch (the model list): "fetch failed" says nothing, its cause says what happened.
  const fetchFailed = chain.findIndex((e) => e instanceof TypeError && e.message === 'fetch failed');
  if (fetchFailed >= 0) {
    const cause = (chain[fetchFailed + 1] as Error | undefined)?.message;
    const why =
      cause === 'bad port'
        ? 'its port is one browsers and fetch refuse to use (a “bad port”); run the server on another port'
        : (cause ?? 'the request failed');
    return { kind: 'unreachable', message: `Could not reach ${baseURL}: ${why}.` };
  }
  const limited = rateLimitHeaders(error);
  if (limited) {
    const body = JSON.stringify({ error: { message: messageOf(errorEvent(error)) } });
    return describeHttpError(429, body, baseURL, hasKey, limited);
  }
  if (overloaded(error))
    return {
      kind: 'http',
      message: overloadedMessage(`the server at ${baseURL}`, messageOf(errorEvent(error))),
      waitAsked: true,
    };
  return { kind: 'error', message: `The model call to ${baseURL} failed: ${messageOf(error)}` };
}

/**
 * The words of a thrown value. A server's error event mid-stream (`data: {"error": {…}}`)
 * reaches here as the plain object it sent, not an Error: its message, else its JSON.
 */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error !== 'object' || error === null) return String(error);
  const record = error as { message?: unknown; error?: unknown; metadata?: { raw?: unknown } };
  // OpenRouter's "Provider returned error" says what the provider answered in `metadata.raw`.
  const raw = record.metadata?.raw;
  const upstream = typeof raw === 'string' && raw.trim() ? serverMessage(raw, raw.trim().slice(0, 300)) : '';
  if (typeof record.message === 'string' && record.message)
    return upstream && !record.message.includes(upstream) ? `${record.message}: ${upstream}` : record.message;
  if (typeof record.error === 'string' && record.error) return record.error;
  if (typeof record.error === 'object' && record.error !== null) return messageOf(record.error);
  try {
    return JSON.stringify(error).slice(0, 500);
  } catch {
    return 'an error the server did not describe';
  }
}
