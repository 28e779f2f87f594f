import { describe, expect, it } from 'vitest';
import type { RepairProposal, RepairTransition } from '../../../../shared/contract';
import {
  addRepairTransition,
  currentProposal,
  mergeRepairTransitions,
  parseReviewHash,
  repairEnded,
  repairsOf,
  reviewHash,
  shortHash,
} from './model';

const step = (repair: string, seq: number, state: RepairTransition['state']): RepairTransition => ({
  repair_id: repair,
  run_id: 'run-1',
  seq,
  state,
  skill: 'expense-total',
  at: new Date(Date.UTC(2026, 0, 1, 10, 0, seq)).toISOString(),
  detail: state,
  attempt: null,
});

describe('repair transitions in the run timeline', () => {
  it('adds each transition once, keyed by repair and seq', () => {
    const a0 = step('rep-a', 0, 'failure_detected');
    const b0 = step('rep-b', 0, 'failure_detected');
    let list = addRepairTransition([], a0);
    list = addRepairTransition(list, a0);
    list = addRepairTransition(list, b0);
    expect(list).toEqual([a0, b0]);
  });

  it('merges an engine answer with events seen already', () => {
    const seen = [step('rep-a', 0, 'failure_detected'), step('rep-a', 1, 'eligibility')];
    const answer = [...seen, step('rep-a', 2, 'planning')];
    expect(mergeRepairTransitions(seen, answer).map((t) => t.seq)).toEqual([0, 1, 2]);
  });

  it('groups a run’s repairs, oldest first, each in seq order, and finds how each ended', () => {
    const list = [
      step('rep-a', 1, 'eligibility'),
      step('rep-a', 0, 'failure_detected'),
      step('rep-b', 0, 'failure_detected'),
      step('rep-a', 2, 'fallback'),
    ];
    const repairs = repairsOf(list);
    expect(repairs.map((r) => r.repairId)).toEqual(['rep-a', 'rep-b']);
    expect(repairs[0].steps.map((t) => t.seq)).toEqual([0, 1, 2]);
    expect(repairEnded(repairs[0].steps)?.state).toBe('fallback');
    expect(repairEnded(repairs[1].steps)).toBeUndefined();
  });
});

describe('the review address and the proposal it opens', () => {
  it('round-trips run and repair ids through the hash', () => {
    const hash = reviewHash('0mwt4zq2j-7496ed5f', 'rep-0a1b2c');
    expect(hash).toBe('#repair/0mwt4zq2j-7496ed5f/rep-0a1b2c');
    expect(parseReviewHash(hash)).toEqual({ runId: '0mwt4zq2j-7496ed5f', repairId: 'rep-0a1b2c' });
    expect(parseReviewHash('#runs')).toBeNull();
    expect(parseReviewHash('#repair/only-one')).toBeNull();
    expect(parseReviewHash('#repair/%E0%A4%A/x')).toBeNull();
  });

  it('addresses a proposal made without a run (a frontmatter fix) with "-" for the run', () => {
    expect(reviewHash('', 'fm-0a1b2c')).toBe('#repair/-/fm-0a1b2c');
    expect(parseReviewHash('#repair/-/fm-0a1b2c')).toEqual({ runId: '', repairId: 'fm-0a1b2c' });
  });

  it('opens the newest pending proposal, else the newest', () => {
    const p = (id: string, created: string, status: RepairProposal['status']) =>
      ({ id, created_at: created, status }) as RepairProposal;
    const old = p('prop-1', '2026-01-01T10:00:00Z', 'superseded');
    const pending = p('prop-2', '2026-01-01T10:01:00Z', 'pending');
    const rejected = p('prop-3', '2026-01-01T10:02:00Z', 'rejected');
    expect(currentProposal([old, pending, rejected])?.id).toBe('prop-2');
    expect(currentProposal([old, rejected])?.id).toBe('prop-3');
    expect(currentProposal([])).toBeUndefined();
  });

  it('shortens hashes and shows a missing one as a dash', () => {
    expect(shortHash('9f86d081884c7d659a2feaa0c55ad015')).toBe('9f86d08188');
    expect(shortHash(null)).toBe('—');
  });
});
