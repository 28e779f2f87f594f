import { describe, expect, it } from 'vitest';
import { createLatestRequester } from './latest';

function deferredRun() {
  const calls: { input: string; resolve: (v: string) => void; reject: (e: unknown) => void }[] = [];
  const run = (input: string) =>
    new Promise<string>((resolve, reject) => calls.push({ input, resolve, reject }));
  return { calls, run };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createLatestRequester', () => {
  it('keeps one request in flight and sends only the newest input after it', async () => {
    const { calls, run } = deferredRun();
    const results: string[] = [];
    const requester = createLatestRequester(
      run,
      (out) => results.push(out),
      () => undefined,
    );
    requester.request('i');
    requester.request('in');
    requester.request('inv');
    expect(calls.map((c) => c.input)).toEqual(['i']);
    calls[0].resolve('R:i');
    await flush();
    expect(calls.map((c) => c.input)).toEqual(['i', 'inv']);
    calls[1].resolve('R:inv');
    await flush();
    expect(results).toEqual(['R:i', 'R:inv']);
  });

  it('drops answers to cancelled input', async () => {
    const { calls, run } = deferredRun();
    const results: string[] = [];
    const requester = createLatestRequester(
      run,
      (out) => results.push(out),
      () => undefined,
    );
    requester.request('a');
    requester.cancel();
    calls[0].resolve('R:a');
    await flush();
    expect(results).toEqual([]);
    requester.request('b');
    expect(calls.map((c) => c.input)).toEqual(['a', 'b']);
  });

  it('drops an answer to input cancelled before newer input was queued', async () => {
    const { calls, run } = deferredRun();
    const results: string[] = [];
    const requester = createLatestRequester(
      run,
      (out) => results.push(out),
      () => undefined,
    );
    requester.request('old');
    requester.cancel();
    requester.request('new');
    calls[0].resolve('R:old');
    await flush();
    expect(results).toEqual([]);
    calls[1].resolve('R:new');
    await flush();
    expect(results).toEqual(['R:new']);
  });

  it('reports only the newest input’s error and keeps going', async () => {
    const { calls, run } = deferredRun();
    const errors: string[] = [];
    const results: string[] = [];
    const requester = createLatestRequester(
      run,
      (out) => results.push(out),
      (_error, input) => errors.push(input),
    );
    requester.request('x');
    requester.request('xy');
    calls[0].reject(new Error('boom'));
    await flush();
    expect(errors).toEqual([]);
    calls[1].resolve('R:xy');
    await flush();
    expect(results).toEqual(['R:xy']);
    requester.request('z');
    calls[2].reject(new Error('boom'));
    await flush();
    expect(errors).toEqual(['z']);
  });
});
