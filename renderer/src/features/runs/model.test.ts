import { describe, expect, it } from 'vitest';
import type { RunResult, RunScript, RunSummary, RunTransition } from '../../../../shared/contract';
import {
  addTransition,
  appendOutput,
  commandRan,
  elapsedMs,
  finishRecord,
  formatDuration,
  offsets,
  runLook,
  scriptInDetail,
  scriptsBeyondCommand,
  stepLabels,
  stateDurations,
  upsertSummary,
} from './model';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const step = (seq: number, state: RunTransition['state'], ms: number, duration?: number): RunTransition => ({
  run_id: 'r1',
  seq,
  state,
  skill: 'save-note',
  at: at(ms),
  detail: state,
  ...(duration === undefined ? {} : { duration_ms: duration }),
});

const script = (path: string): RunScript => ({
  skill: 'doc-helper',
  script: path,
  command: ['/usr/bin/bash', `/skills/doc-helper/${path}`],
  sandbox: 'bwrap',
  status: 'success',
  exit_code: 0,
  duration_ms: 12,
});

const summary = (run_id: string, startedMs: number, patch: Partial<RunSummary> = {}): RunSummary => ({
  run_id,
  skill: 'save-note',
  skill_id: '/skills/save-note',
  task: 'save a note: milk',
  status: 'running',
  sandbox: 'none',
  started_at: at(startedMs),
  duration_ms: null,
  ...patch,
});

describe('timeline durations', () => {
  const timeline = [
    step(0, 'selected', 0, 0),
    step(1, 'awaiting_approval', 100, 100),
    step(2, 'running', 5_100, 5_000),
    step(3, 'success', 5_400, 300),
  ];

  it('gives each state the time until the next transition, none to a final state', () => {
    expect(stateDurations(timeline, true, T0 + 9_999)).toEqual([100, 5_000, 300, null]);
  });

  it('counts the last state of a run under way up to now', () => {
    expect(stateDurations(timeline.slice(0, 3), false, T0 + 6_100)).toEqual([100, 5_000, 1_000]);
  });

  it('falls back to the timestamps when a transition has no duration', () => {
    expect(stateDurations([step(0, 'selected', 0), step(1, 'running', 250)], true, T0)).toEqual([250, null]);
  });

  it('offsets each step from the first', () => {
    expect(offsets(timeline)).toEqual([0, 100, 5_100, 5_400]);
  });

  it('adds a transition once, in seq order', () => {
    const added = addTransition([timeline[0], timeline[2]], timeline[1]);
    expect(added.map((t) => t.seq)).toEqual([0, 1, 2]);
    expect(addTransition(added, timeline[1])).toHaveLength(3);
  });
});

describe('commandRan', () => {
  it('knows from the result, or from the status and timeline while there is none', () => {
    expect(commandRan({ status: 'success' }, [], { command: ['python3'] })).toBe('yes');
    expect(commandRan({ status: 'success' }, [], { command: [] })).toBe('no');
    // Plain chat answered (no command) after the skill's own command failed: it ran.
    const failed = { command: ['python3', 'sum.py'] } as NonNullable<RunResult['primary_failure']>;
    expect(commandRan({ status: 'success' }, [], { command: [], primary_failure: failed })).toBe('yes');
    expect(commandRan({ status: 'denied' }, undefined, undefined)).toBe('no');
    expect(commandRan({ status: 'running' }, [step(0, 'awaiting_approval', 0)], null)).toBe('pending');
    expect(commandRan({ status: 'running' }, [step(0, 'running', 0)], null)).toBe('yes');
    expect(commandRan({ status: 'success' }, undefined, undefined)).toBe('unknown');
  });

  it('counts the scripts an instruction skill’s model ran, though the run has no command of its own', () => {
    expect(commandRan({ status: 'success' }, [], { command: [], scripts: [script('scripts/a.sh')] })).toBe(
      'yes',
    );
    // A record kept before `scripts`: its timeline still shows the script starting.
    const ran = [step(0, 'selected', 0), step(1, 'running', 5), step(2, 'success', 9)];
    expect(commandRan({ status: 'success' }, ran, { command: [] })).toBe('yes');
    // A model that ran nothing: nothing ran.
    expect(commandRan({ status: 'success' }, [step(0, 'selected', 0)], { command: [] })).toBe('no');
  });
});

describe('scripts beyond the run’s own command', () => {
  it('lists what the model ran, not a script run’s own command again', () => {
    const a = script('scripts/a.sh');
    expect(scriptsBeyondCommand({ command: [], scripts: [a] })).toEqual([a]);
    expect(scriptsBeyondCommand({ command: a.command, scripts: [a] })).toEqual([]);
    // Retried: both times are shown.
    expect(scriptsBeyondCommand({ command: a.command, scripts: [a, a] })).toEqual([a, a]);
    expect(scriptsBeyondCommand({ command: [] })).toEqual([]);
  });
});

describe('a running step’s script', () => {
  it('is set apart from the words around it; a step naming none has no parts', () => {
    expect(
      scriptInDetail({ detail: 'running scripts/x.sh in the bwrap sandbox', script: 'scripts/x.sh' }),
    ).toEqual({ before: 'running ', script: 'scripts/x.sh', after: ' in the bwrap sandbox' });
    expect(scriptInDetail({ detail: 'running in the bwrap sandbox' })).toBeNull();
    expect(scriptInDetail({ detail: 'running', script: 'scripts/x.sh' })).toEqual({
      before: 'running ',
      script: 'scripts/x.sh',
      after: '',
    });
  });
});

describe('step labels', () => {
  const denied = [
    step(0, 'selected', 0),
    step(1, 'awaiting_approval', 5),
    step(2, 'fatal_failure', 9),
    step(3, 'exit', 9),
  ];

  it('names the failure step of a denied or blocked run by what it was', () => {
    expect(stepLabels(denied, 'denied')).toEqual(['Selected', 'Waiting for approval', 'Denied', 'Ended']);
    expect(stepLabels(denied, 'blocked')[2]).toBe('Blocked');
  });

  it('keeps failure for a real failure, and for earlier failures before a fallback', () => {
    expect(stepLabels(denied, 'failure')[2]).toBe('Failed');
    const retried = [step(0, 'selected', 0), step(1, 'retryable_failure', 1), step(2, 'fatal_failure', 2)];
    expect(stepLabels(retried, 'timeout')).toEqual(['Selected', 'Failed, will retry once', 'Timed out']);
  });
});

describe('run looks', () => {
  it('says a run under way waits for approval when its last step does', () => {
    const s = summary('r1', 0);
    expect(runLook(s, [step(0, 'selected', 0), step(1, 'awaiting_approval', 5)])).toBe('awaiting_approval');
    expect(runLook(s, [step(0, 'selected', 0), step(1, 'running', 5)])).toBe('running');
    expect(runLook({ status: 'denied' }, [])).toBe('denied');
  });
});

describe('the runs list', () => {
  it('keeps the newest first and replaces a run in place', () => {
    let list = upsertSummary([], summary('a', 0));
    list = upsertSummary(list, summary('b', 1_000));
    list = upsertSummary(list, summary('a', 0, { status: 'success', duration_ms: 12 }));
    expect(list.map((r) => `${r.run_id}:${r.status}`)).toEqual(['b:running', 'a:success']);
  });

  it('shows the time since start while running, the duration after', () => {
    expect(elapsedMs(summary('a', 0), T0 + 2_500)).toBe(2_500);
    expect(elapsedMs(summary('a', 0, { duration_ms: 40 }), T0 + 2_500)).toBe(40);
  });

  it('takes the summary from the result once the run ends, keeping the task', () => {
    const result = {
      run_id: 'a',
      skill: 'save-note',
      skill_id: '/s',
      status: 'denied',
      sandbox: 'bwrap',
      duration_ms: 9,
      timeline: [],
    } as unknown as RunResult;
    const record = finishRecord(
      {
        summary: summary('a', 0),
        result: null,
        timeline: [step(0, 'selected', 0)],
        input: { x: 1 },
        entrypoint: 'save',
      },
      result,
    );
    expect(record.summary).toMatchObject({
      status: 'denied',
      task: 'save a note: milk',
      duration_ms: 9,
      sandbox: 'bwrap',
    });
    expect(record.timeline).toHaveLength(1);
    expect(record.entrypoint).toBe('save');
  });
});

describe('formatDuration', () => {
  it('reads naturally from milliseconds to minutes', () => {
    expect(formatDuration(42)).toBe('42 ms');
    expect(formatDuration(1_450)).toBe('1.4 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
    expect(formatDuration(null)).toBe('—');
  });
});

describe('live output', () => {
  it('merges chunks of the same stream and keeps stderr apart', () => {
    let out = appendOutput([], { stream: 'stdout', text: 'a' });
    out = appendOutput(out, { stream: 'stdout', text: 'b' });
    out = appendOutput(out, { stream: 'stderr', text: 'oops' });
    expect(out).toEqual([
      { stream: 'stdout', text: 'ab' },
      { stream: 'stderr', text: 'oops' },
    ]);
  });

  it('drops the oldest text past the cap', () => {
    let out = appendOutput([], { stream: 'stdout', text: '12345' }, 8);
    out = appendOutput(out, { stream: 'stderr', text: '6789' }, 8);
    expect(out).toEqual([
      { stream: 'stdout', text: '2345' },
      { stream: 'stderr', text: '6789' },
    ]);
    out = appendOutput(out, { stream: 'stdout', text: 'abcdefgh' }, 8);
    expect(out).toEqual([{ stream: 'stdout', text: 'abcdefgh' }]);
  });
});
