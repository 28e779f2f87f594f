import { describe, expect, it } from 'vitest';
import { describeHttpError, describeModelError } from './errors';

// How long a server asks to be left alone, in the words a turn or a repair ends with.
const URL = 'http://127.0.0.1:9/v1';
const body = JSON.stringify({ error: { message: 'Busy.' } });

describe('a server that asks to wait', () => {
  it('a 503 with Retry-After says how long and is marked as asking to wait', () => {
    expect(describeHttpError(503, body, URL, true, { 'Retry-After': '30' })).toEqual({
      kind: 'http',
      status: 503,
      message: `503: the server at ${URL} failed (Busy.); it asks to wait 30 s before retrying.`,
      waitAsked: true,
      retryAfterMs: 30_000,
    });
  });

  it('the wait is also given in milliseconds, so the window can hold Retry back that long', () => {
    expect(describeHttpError(429, body, URL, true, { 'retry-after': '20' }).retryAfterMs).toBe(20_000);
    expect(describeHttpError(429, body, URL, true, { 'retry-after-ms': '1500' }).retryAfterMs).toBe(2000);
    const date = new Date(Date.now() + 61_000).toUTCString();
    expect(describeHttpError(429, body, URL, true, { 'Retry-After': date }).retryAfterMs).toBeGreaterThan(
      55_000,
    );
    expect(describeHttpError(429, body, URL, true, {}).retryAfterMs).toBeUndefined();
  });

  it('a wait of days is said in days, and the window holds Retry back at most a day', () => {
    const tenDays = describeHttpError(429, body, URL, true, { 'Retry-After': '864000' });
    expect(tenDays).toEqual({
      kind: 'http',
      status: 429,
      message: `429: ${URL} is rate-limiting requests (Busy.); it asks to wait 10 days before retrying.`,
      waitAsked: true,
    });
    const hours = describeHttpError(429, body, URL, true, { 'Retry-After': '10800' });
    expect(hours.message).toMatch(/it asks to wait 3 h before retrying\.$/);
    expect(hours.retryAfterMs).toBe(10_800_000);
  });

  it('a wait beyond any date (a number of 20 digits, the year 2099) is no error of its own', () => {
    // It made a date no Date can hold: the turn said "Invalid time value" instead of the 429.
    for (const retryAfter of ['99999999999999999999', 'Wed, 21 Oct 2099 07:28:00 GMT']) {
      const info = describeHttpError(429, body, URL, true, { 'Retry-After': retryAfter });
      expect(info).toEqual({
        kind: 'http',
        status: 429,
        message: `429: ${URL} is rate-limiting requests (Busy.); it asks to wait more than a year before retrying.`,
        waitAsked: true,
      });
    }
  });

  it('a 5xx without it is a passing failure', () => {
    expect(describeHttpError(502, body, URL, true, {})).toEqual({
      kind: 'http',
      status: 502,
      message: `502: the server at ${URL} failed (Busy.).`,
    });
  });

  it('retry-after-ms (Azure OpenAI) counts, in seconds rounded up', () => {
    expect(describeHttpError(429, body, URL, true, { 'retry-after-ms': '1500' }).message).toBe(
      `429: ${URL} is rate-limiting requests (Busy.); it asks to wait 2 s before retrying.`,
    );
  });

  it('a 429 that says nothing still asks to wait', () => {
    expect(describeHttpError(429, body, URL, true, {})).toMatchObject({
      message: `429: ${URL} is rate-limiting requests (Busy.); wait and retry.`,
      waitAsked: true,
    });
  });
});

describe('a rate limit said by an error event in the stream', () => {
  const context = { baseURL: URL, hasKey: true };

  it('Anthropic’s rate_limit_error reads as its 429', () => {
    const event = { type: 'rate_limit_error', message: 'Slow down.' };
    expect(describeModelError(event, context)).toEqual({
      kind: 'http',
      status: 429,
      message: `429: ${URL} is rate-limiting requests (Slow down.); wait and retry.`,
      waitAsked: true,
    });
  });

  it('OpenAI’s code rate_limit_exceeded too; an epoch-seconds X-RateLimit-Reset gives the wait', () => {
    const reset = String(Math.floor(Date.now() / 1000) + 90);
    const event = {
      message: 'Rate limit reached for requests.',
      type: 'requests',
      code: 'rate_limit_exceeded',
      metadata: { headers: { 'X-RateLimit-Reset': reset } },
    };
    expect(describeModelError(event, context).message).toMatch(
      /it asks to wait (8[5-9]|90) s before retrying\.$/,
    );
  });

  it('a reset that is no moment (a duration) says no wait', () => {
    const event = { code: 429, message: 'Busy.', metadata: { headers: { 'x-ratelimit-reset': '30' } } };
    expect(describeModelError(event, context).message).toBe(
      `429: ${URL} is rate-limiting requests (Busy.); wait and retry.`,
    );
  });

  it('any other error event stays a plain failure, with what the provider said', () => {
    const event = {
      code: 502,
      message: 'Provider returned error',
      metadata: { raw: 'upstream connect error' },
    };
    expect(describeModelError(event, context)).toEqual({
      kind: 'error',
      message: `The model call to ${URL} failed: Provider returned error: upstream connect error`,
    });
  });
});
