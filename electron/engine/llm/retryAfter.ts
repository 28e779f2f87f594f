// How long a server asks to be left alone (Retry-After and its kin), and that wait in words.

/**
 * When the server says to come back: its Retry-After (seconds or an HTTP date) or
 * retry-after-ms (Azure OpenAI, the OpenAI SDKs), in whole seconds (at least 1); undefined when
 * it says nothing.
 */
export function retryAfterSeconds(headers: Record<string, string | undefined>): number | undefined {
  const header = (wanted: string) =>
    Object.entries(headers)
      .find(([name]) => name.toLowerCase() === wanted)?.[1]
      ?.trim();
  const value = header('retry-after');
  const ms = header('retry-after-ms');
  const seconds =
    ms && /^\d+(?:\.\d+)?$/.test(ms)
      ? Number(ms) / 1000
      : !value
        ? resetIn(header('x-ratelimit-reset'))
        : /^\d+$/.test(value)
          ? Number(value)
          : (Date.parse(value) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.max(1, Math.ceil(seconds));
}

/** The longest wait the window counts down before it lets Retry go: a day. */
export const MAX_HOLD_SECONDS = 86_400;

/** "30 s", "5 min", "3 h", "10 days": a wait of 20 digits said as such, not as 10¹⁵ days. */
export function waitWords(wait: number): string {
  const hours = wait / 3600;
  const said =
    wait < 120
      ? `${wait} s`
      : hours < 2
        ? `${Math.ceil(wait / 60)} min`
        : hours < 48
          ? `${Math.ceil(hours)} h`
          : hours / 24 <= 365
            ? `${Math.ceil(hours / 24)} days`
            : 'more than a year';
  return `it asks to wait ${said} before retrying`;
}

/**
 * Seconds until an X-RateLimit-Reset given as a moment (OpenRouter: epoch milliseconds; GitHub
 * and others: epoch seconds); NaN for anything else, such as the durations some servers send.
 */
function resetIn(value: string | undefined): number {
  if (!value || !/^\d+$/.test(value)) return NaN;
  const at = Number(value) > 1e12 ? Number(value) : Number(value) > 1e9 ? Number(value) * 1000 : NaN;
  const seconds = (at - Date.now()) / 1000;
  return seconds > 0 && seconds < 86_400 ? seconds : NaN;
}
