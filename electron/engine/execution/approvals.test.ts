import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, ApprovalResolution } from '../../../shared/contract';
import { EngineEvents } from '../events';
import { ApprovalBroker } from './approvals';
import { SAVE_NOTE_ASK as ask } from './testSkills';

function setup(timeoutMs = 5_000, graceMs = 50) {
  const events = new EngineEvents();
  const requested: ApprovalRequest[] = [];
  const resolved: ApprovalResolution[] = [];
  events.subscribe((name, payload) => {
    if (name === 'approval.requested') requested.push(payload as ApprovalRequest);
    if (name === 'approval.resolved') resolved.push(payload as ApprovalResolution);
  });
  return { broker: new ApprovalBroker({ events, timeoutMs, graceMs }), requested, resolved };
}

describe('ApprovalBroker', () => {
  it('announces the request with its deadline and resolves with the user’s answer', async () => {
    const { broker, requested, resolved } = setup();
    const answer = broker.ask(ask);
    expect(requested).toHaveLength(1);
    const [request] = requested;
    expect(Date.parse(request.expires_at) - Date.parse(request.requested_at)).toBe(5_000);
    expect(broker.list().map((r) => r.id)).toEqual([request.id]);
    broker.answer(request.id, 'deny', '  not now ');
    await expect(answer).resolves.toEqual({
      id: request.id,
      run_id: 'r1',
      decision: 'deny',
      by: 'user',
      reason: 'not now',
    });
    expect(resolved).toHaveLength(1);
    expect(broker.list()).toEqual([]);
    expect(() => broker.answer(request.id, 'allow_once')).toThrow(/answered or expired/);
  });

  it('denies when nobody answers in time', async () => {
    const { broker } = setup(40);
    await expect(broker.ask(ask)).resolves.toMatchObject({ decision: 'deny', by: 'timeout' });
  });

  it('denies when the run is stopped while it waits', async () => {
    const { broker } = setup();
    const controller = new AbortController();
    const answer = broker.ask(ask, controller.signal);
    controller.abort();
    await expect(answer).resolves.toMatchObject({ decision: 'deny', by: 'policy' });
  });

  it('keeps requests over a reload (back within the grace) and denies them when the last window is gone', async () => {
    const { broker } = setup(5_000, 60);
    const gone = broker.attach();
    const first = broker.ask(ask);
    gone();
    // A reload: the window comes back within the grace, the request is still pending.
    await new Promise((r) => setTimeout(r, 20));
    const back = broker.attach();
    await new Promise((r) => setTimeout(r, 80));
    expect(broker.list()).toHaveLength(1);
    // The window closes for good: denied after the grace.
    back();
    back();
    await expect(first).resolves.toMatchObject({ decision: 'deny', by: 'disconnect' });
  });

  it('starts the grace clock for a request raised after every window left', async () => {
    const { broker } = setup(5_000, 30);
    broker.attach()();
    await expect(broker.ask(ask)).resolves.toMatchObject({ decision: 'deny', by: 'disconnect' });
  });

  it('waits for the timeout when no window was ever attached (a headless client may answer)', async () => {
    const { broker, requested } = setup(5_000, 10);
    const answer = broker.ask(ask);
    await new Promise((r) => setTimeout(r, 40));
    expect(broker.list()).toHaveLength(1);
    broker.answer(requested[0].id, 'allow_once', undefined, 'flag');
    await expect(answer).resolves.toMatchObject({ decision: 'allow_once', by: 'flag' });
  });
});
