import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalResolution } from '../../../shared/contract';
import { EngineEvents } from '../events';
import { ApprovalBroker, describeAnswer } from './approvals';
import { SAVE_NOTE_ASK as ask } from './testSkills';

// The broker's clocks on a fake timer, so "after how long" is exact (approvals.rules.test.ts
// checks the same rules on the real clock, with margins): the answer timeout, and the grace
// period that starts when the last window that could answer goes away.
const GRACE = 1_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(timeoutMs = 60_000) {
  const broker = new ApprovalBroker({ events: new EngineEvents(), timeoutMs, graceMs: GRACE });
  const answers: ApprovalResolution[] = [];
  const pending = (run = 'r1') => void broker.ask({ ...ask, run_id: run }).then((a) => answers.push(a));
  return { broker, answers, pending };
}
const after = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('the answer timeout', () => {
  it('says how long it waited, in whole seconds from 10 s', async () => {
    for (const [timeoutMs, words] of [
      [10_000, 'no answer within 10 s'],
      [9_500, 'no answer within 9.5 s'],
    ] as const) {
      const { answers, pending } = setup(timeoutMs);
      pending();
      await after(timeoutMs - 1);
      expect(answers).toEqual([]);
      await after(1);
      expect(answers).toEqual([expect.objectContaining({ decision: 'deny', by: 'timeout', reason: words })]);
    }
  });
});

describe('the grace period', () => {
  it('denies what is pending a full grace period after the last window goes', async () => {
    const { broker, answers, pending } = setup();
    const gone = broker.attach();
    pending();
    await after(GRACE / 2);
    gone();
    await after(GRACE - 1);
    expect(answers).toEqual([]);
    await after(1);
    expect(answers).toEqual([expect.objectContaining({ decision: 'deny', by: 'disconnect' })]);
  });

  it('starts only when a request waits: a window that left earlier sets no clock', async () => {
    const { broker, answers, pending } = setup();
    broker.attach()();
    await after(GRACE / 2);
    pending();
    await after(GRACE - 1);
    expect(answers).toEqual([]);
    await after(1);
    expect(answers).toHaveLength(1);
  });

  it('stops when a window comes back, and starts afresh when it goes again', async () => {
    const { broker, answers, pending } = setup();
    const first = broker.attach();
    pending();
    first();
    await after(GRACE / 2);
    const second = broker.attach();
    await after(GRACE / 10);
    second();
    await after(GRACE - 1);
    expect(answers).toEqual([]);
    await after(1);
    expect(answers).toHaveLength(1);
  });

  it('keeps one clock: a request asked while unattended is denied with the first', async () => {
    const { broker, answers, pending } = setup();
    broker.attach()();
    pending('r1');
    await after(GRACE / 2);
    pending('r2');
    await after(GRACE / 2);
    expect(answers.map((a) => a.run_id)).toEqual(['r1', 'r2']);
  });

  it('leaves requests alone while a window is there', async () => {
    const { broker, answers, pending } = setup();
    broker.attach();
    const other = broker.attach();
    pending();
    other();
    await after(GRACE * 5);
    expect(answers).toEqual([]);
  });
});

describe('a run signal', () => {
  it('keeps no listener once the request is answered', async () => {
    const { broker } = setup();
    const run = new AbortController();
    const answer = broker.ask(ask, run.signal);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    broker.answer(broker.list()[0].id, 'allow_once');
    await answer;
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});

describe('describeAnswer', () => {
  it('says what was decided and by whom, with the reason when there is one', () => {
    const line = (decision: ApprovalResolution['decision'], by: ApprovalResolution['by'], reason?: string) =>
      describeAnswer({ id: 'a', run_id: 'r', decision, by, ...(reason ? { reason } : {}) });
    expect(line('allow_once', 'user')).toBe('allowed once by you');
    expect(line('allow_always', 'grant')).toBe('allowed always by your always-allow grant');
    expect(line('deny', 'timeout', 'no answer within 60 s')).toBe(
      'denied because no one answered in time: no answer within 60 s',
    );
    expect(line('deny', 'disconnect')).toBe('denied because the window closed or lost its connection');
    expect(line('allow_once', 'flag')).toBe('allowed once by a command-line flag');
    expect(line('deny', 'policy')).toBe('denied by policy');
  });
});
