import { describe, expect, it } from 'vitest';
import { describeHttpError } from './errors';

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
    });
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
