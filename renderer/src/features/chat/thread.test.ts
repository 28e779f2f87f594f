import { describe, expect, it } from 'vitest';
import { turn } from './testTurns';
import { appendDeltas, mergeLoaded, runningTurn, startedOver, upsertStep, upsertTurn } from './thread';

describe('the open conversation follows chat events', () => {
  it('adds a started turn and replaces it when it finishes', () => {
    const started = upsertTurn([turn('a', { status: 'success' })], turn('b'));
    expect(started.map((t) => t.turn_id)).toEqual(['a', 'b']);
    const finished = upsertTurn(started, turn('b', { status: 'success', answer: 'done' }));
    expect(finished).toHaveLength(2);
    expect(finished[1]).toMatchObject({ status: 'success', answer: 'done' });
  });

  it('appends buffered text to running turns only', () => {
    const turns = [turn('a', { status: 'success', answer: 'full' }), turn('b', { answer: 'He' })];
    const next = appendDeltas(
      turns,
      new Map([
        ['a', ' late'],
        ['b', 'llo'],
        ['unknown', 'x'],
      ]),
    );
    expect(next.map((t) => t.answer)).toEqual(['full', 'Hello']);
  });

  it('starts a running turn’s answer over when a fallback answers afresh, and leaves a finished one', () => {
    const failed = turn('a', {
      answer: 'The first half of a ',
      steps: [{ id: 'run:1', kind: 'run', name: 'tone-check', status: 'failure', answer_offset: 12 }],
    });
    const over = startedOver(failed);
    expect(over.answer).toBe('');
    expect(over.steps[0].answer_offset).toBe(0);
    expect(appendDeltas([over], new Map([['a', 'A whole answer.']]))[0].answer).toBe('A whole answer.');
    const done = turn('b', { status: 'success', answer: 'kept' });
    expect(startedOver(done)).toBe(done);
  });

  it('updates a step in place by its id and ignores finished turns', () => {
    const running = [turn('a')];
    const one = upsertStep(running, 'a', {
      id: 's1',
      kind: 'tool',
      name: 'read_skill_file',
      status: 'running',
    });
    const two = upsertStep(one, 'a', { id: 's1', kind: 'tool', name: 'read_skill_file', status: 'success' });
    expect(two[0].steps).toEqual([{ id: 's1', kind: 'tool', name: 'read_skill_file', status: 'success' }]);
    const done = [turn('a', { status: 'success' })];
    expect(upsertStep(done, 'a', { id: 's2', kind: 'model', name: 'm', status: 'running' })[0].steps).toEqual(
      [],
    );
  });

  it('keeps a running turn the log does not hold yet when the conversation loads', () => {
    const loaded = [turn('a', { status: 'success' })];
    const live = [turn('a', { status: 'running' }), turn('b'), turn('c', { status: 'success' })];
    expect(mergeLoaded(loaded, live).map((t) => `${t.turn_id}:${t.status}`)).toEqual([
      'a:success',
      'b:running',
    ]);
  });

  it('finds the turn Stop stops', () => {
    expect(runningTurn([turn('a', { status: 'success' }), turn('b')])?.turn_id).toBe('b');
    expect(runningTurn([turn('a', { status: 'success' })])).toBeUndefined();
  });
});
