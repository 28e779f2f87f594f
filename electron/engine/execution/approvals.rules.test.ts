import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, ApprovalResolution } from '../../../shared/contract';
import { EngineEvents } from '../events';
import { ApprovalBroker } from './approvals';
import { SAVE_NOTE_ASK as ask } from './testSkills';

// The broker's edges (DESIGN §4: nothing resolves to "allow" but an explicit answer; its timeout
// words and clocks are exact in approvals.clock.test.ts);
// approvals.test.ts walks through its main paths.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup(options: { timeoutMs?: number; graceMs?: number; now?: () => number } = {}) {
  const events = new EngineEvents();
  const requested: ApprovalRequest[] = [];
  const resolved: ApprovalResolution[] = [];
  events.subscribe((name, payload) => {
    if (name === 'approval.requested') requested.push(payload as ApprovalRequest);
    if (name === 'approval.resolved') resolved.push(payload as ApprovalResolution);
  });
  const broker = new ApprovalBroker({ events, timeoutMs: 5_000, graceMs: 5_000, ...options });
  return { broker, requested, resolved };
}

describe('ApprovalBroker edges', () => {
  it('stamps the request with the clock it was given', () => {
    const { broker, requested } = setup({ now: () => Date.UTC(2030, 0, 1), timeoutMs: 90_000 });
    void broker.ask(ask);
    expect(requested[0]).toMatchObject({
      ...ask,
      requested_at: '2030-01-01T00:00:00.000Z',
      expires_at: '2030-01-01T00:01:30.000Z',
    });
    expect(requested[0].id).toMatch(/^[0-9a-f-]{36}$/);
    broker.denyAll('policy', 'cleanup');
  });

  it('denies at once when the run was stopped before it asked', async () => {
    const { broker, resolved } = setup();
    const answer = await broker.ask(ask, AbortSignal.abort());
    expect(answer).toMatchObject({
      decision: 'deny',
      by: 'policy',
      reason: 'the run was stopped before anyone answered',
    });
    expect(resolved).toHaveLength(1);
    expect(broker.list()).toEqual([]);
  });

  it('settles once: a late abort after the answer changes nothing', async () => {
    const { broker, requested, resolved } = setup();
    const controller = new AbortController();
    const answer = broker.ask(ask, controller.signal);
    broker.answer(requested[0].id, 'allow_once', '   ');
    controller.abort();
    await expect(answer).resolves.toEqual({
      id: requested[0].id,
      run_id: 'r1',
      decision: 'allow_once',
      by: 'user',
    });
    expect(resolved).toHaveLength(1);
  });

  it('refuses to answer an unknown id, naming at most 128 characters of it', () => {
    const { broker } = setup();
    const long = 'x'.repeat(300);
    expect(() => broker.answer(long, 'allow_once')).toThrow(
      expect.objectContaining({
        code: 'not_found',
        message: expect.stringContaining(`"${'x'.repeat(128)}"`),
      }),
    );
    expect(() => broker.answer(long, 'allow_once')).not.toThrow(new RegExp('x'.repeat(129)));
  });

  it('lists pending requests oldest first and denies them all at once', async () => {
    const { broker, requested } = setup();
    const answers = [broker.ask(ask), broker.ask({ ...ask, run_id: 'r2' })];
    expect(broker.list().map((r) => r.run_id)).toEqual(['r1', 'r2']);
    broker.denyAll('disconnect', 'shutting down');
    expect(await Promise.all(answers)).toEqual([
      { id: requested[0].id, run_id: 'r1', decision: 'deny', by: 'disconnect', reason: 'shutting down' },
      { id: requested[1].id, run_id: 'r2', decision: 'deny', by: 'disconnect', reason: 'shutting down' },
    ]);
  });

  it('does not start the grace clock while a window remains, nor when nothing is pending', async () => {
    const { broker, requested } = setup({ graceMs: 30 });
    const first = broker.attach();
    const second = broker.attach();
    first();
    first(); // a second "gone" for the same window counts once
    // Nothing pending when the last window goes: no clock; a window coming back keeps it off.
    second();
    const back = broker.attach();
    const answer = broker.ask(ask);
    await sleep(90);
    expect(broker.list()).toHaveLength(1);
    broker.answer(requested[0].id, 'allow_once');
    await expect(answer).resolves.toMatchObject({ decision: 'allow_once' });
    back();
  });

  it('stops the clock for every waiting request when a window comes back, and restarts it when it goes', async () => {
    const { broker } = setup({ graceMs: 30 });
    broker.attach()();
    const first = broker.ask(ask);
    const second = broker.ask({ ...ask, run_id: 'r2' });
    const back = broker.attach();
    await sleep(90);
    expect(broker.list()).toHaveLength(2);
    back();
    for (const answer of [first, second])
      await expect(answer).resolves.toMatchObject({
        decision: 'deny',
        by: 'disconnect',
        reason: 'the window that could answer was closed or lost its connection',
      });
  });
});
