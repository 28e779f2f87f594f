import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../../shared/contract';
import {
  addRequests,
  describeNetwork,
  describeResolution,
  describeWiden,
  formatCountdown,
  headOf,
  msLeft,
  removeRequest,
  shortHash,
  urgency,
} from './queue';

const request = (id: string, at: string): ApprovalRequest => ({
  id,
  run_id: `run-${id}`,
  skill: 'save-note',
  skill_id: '/skills/save-note',
  version: '1.0.0',
  content_hash: 'sha256:0123456789abcdef0123',
  command: ['python3', 'save_note.py'],
  command_line: 'python3 save_note.py',
  cwd: '/tmp/run/work',
  reads: [],
  writes: ['./out/**'],
  network: false,
  env: ['INPUT_JSON'],
  sandbox: 'bwrap',
  unenforced: [],
  summary: ['runs python scripts'],
  reasons: ['runs a command'],
  requested_at: at,
  expires_at: new Date(Date.parse(at) + 120_000).toISOString(),
});

describe('the approval queue', () => {
  it('keeps the oldest request first, whatever order they arrive in', () => {
    const late = request('b', '2026-01-01T10:00:05.000Z');
    const early = request('a', '2026-01-01T10:00:01.000Z');
    const queue = addRequests(addRequests([], [late], new Set()), [early], new Set());
    expect(queue.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('breaks a tie on the id, so the order never flickers', () => {
    const at = '2026-01-01T10:00:00.000Z';
    expect(addRequests([], [request('z', at), request('m', at)], new Set()).map((r) => r.id)).toEqual([
      'm',
      'z',
    ]);
  });

  it('merges the pending list after a reload without duplicates', () => {
    const a = request('a', '2026-01-01T10:00:01.000Z');
    const b = request('b', '2026-01-01T10:00:02.000Z');
    expect(addRequests([a], [a, b], new Set()).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('leaves out a request resolved before the pending list arrived', () => {
    const a = request('a', '2026-01-01T10:00:01.000Z');
    const b = request('b', '2026-01-01T10:00:02.000Z');
    expect(addRequests([], [a, b], new Set(['a'])).map((r) => r.id)).toEqual(['b']);
  });

  it('removes an answered request', () => {
    const a = request('a', '2026-01-01T10:00:01.000Z');
    expect(removeRequest([a], 'a')).toEqual([]);
  });

  it('shows the picked request, else the oldest', () => {
    const a = request('a', '2026-01-01T10:00:01.000Z');
    const b = request('b', '2026-01-01T10:00:02.000Z');
    expect(headOf([a, b], 'b')?.id).toBe('b');
    expect(headOf([a, b], 'gone')?.id).toBe('a');
    expect(headOf([], null)).toBeUndefined();
  });
});

describe('the countdown', () => {
  it('formats minutes and seconds, rounding up so 0:00 means over', () => {
    expect(formatCountdown(120_000)).toBe('2:00');
    expect(formatCountdown(9_001)).toBe('0:10');
    expect(formatCountdown(9_000)).toBe('0:09');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5_000)).toBe('0:00');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
  });

  it('turns amber, then red, then expired', () => {
    expect(urgency(60_000)).toBe('calm');
    expect(urgency(30_000)).toBe('soon');
    expect(urgency(10_000)).toBe('urgent');
    expect(urgency(0)).toBe('expired');
  });

  it('counts down to expires_at', () => {
    const r = request('a', '2026-01-01T10:00:00.000Z');
    expect(msLeft(r, Date.parse('2026-01-01T10:01:30.000Z'))).toBe(30_000);
  });
});

describe('the facts in words', () => {
  it('shortens the content hash', () => {
    expect(shortHash('sha256:0123456789abcdef0123')).toBe('0123456789ab');
    expect(shortHash('abcdef0123456789')).toBe('abcdef012345');
  });

  it('tells the network rule', () => {
    expect(describeNetwork(false)).toBe('no network');
    expect(describeNetwork(true)).toBe('any host');
    expect(describeNetwork(['api.example.com', 'x.org'])).toBe('api.example.com, x.org');
  });

  it('tells a widening as more than declared', () => {
    expect(describeWiden({ kind: 'write', target: '/etc/x', grant: '/etc/x' })).toBe(
      'asks for more than it declares: write /etc/x',
    );
  });
});

describe('describeResolution', () => {
  it('says who answered and how', () => {
    expect(describeResolution({ decision: 'allow_once', by: 'user' })).toBe('Allowed once by you');
    expect(describeResolution({ decision: 'deny', by: 'user', reason: 'not now' })).toBe(
      'Denied by you (not now)',
    );
    expect(describeResolution({ decision: 'deny', by: 'timeout' })).toBe('Denied: no answer in time');
    expect(describeResolution({ decision: 'allow_always', by: 'grant' })).toBe(
      'Allowed by your always-allow grant',
    );
    expect(describeResolution({ decision: 'allow_always', by: 'user' })).toBe('Always allowed by you');
  });
});
