import { describe, expect, it } from 'vitest';
import { candidate, turn } from './testTurns';
import type { ChatStep } from '../../../../shared/contract';
import { answerParts, argumentsSummary, needsModel, routeChip, turnNotice } from './turnView';

describe('the routing chip', () => {
  it('names the skill that answered with its score', () => {
    const t = turn(
      'a',
      { skill: 'json-format' },
      { candidates: [candidate('json-format', 0.91)], primary: 'json-format' },
    );
    expect(routeChip(t)).toMatchObject({ label: 'json-format', score: 0.91, fallback: false });
  });

  it('says plain chat when no skill was chosen', () => {
    expect(
      routeChip(turn('a', {}, { candidates: [candidate('x', 0.3, { status: 'below_threshold' })] })),
    ).toEqual({
      label: 'plain chat',
      score: null,
      fallback: false,
      source: null,
      byModel: false,
    });
  });

  it('says when the model ran a skill the router kept under T', () => {
    const t = turn(
      'a',
      { skill: 'x' },
      { candidates: [candidate('x', 0.43, { status: 'below_threshold' })] },
    );
    expect(routeChip(t)).toMatchObject({ label: 'x', score: 0.43, fallback: false, byModel: true });
  });

  it('marks a fallback skill', () => {
    const t = turn(
      'a',
      { skill: 'b' },
      { candidates: [candidate('a', 0.9), candidate('b', 0.7)], primary: 'a' },
    );
    expect(routeChip(t)).toMatchObject({ label: 'b', score: 0.7, fallback: true });
  });
});

describe('turn notices', () => {
  it('says what to do next for each failing status', () => {
    expect(turnNotice(turn('a', { status: 'success' }))).toBeNull();
    expect(turnNotice(turn('a', { status: 'no_model' }))?.hint).toMatch(/Settings → Model/);
    expect(turnNotice(turn('a', { status: 'no_model', skill: null }))?.title).toBe('No model is configured');
    expect(turnNotice(turn('a', { status: 'no_model', skill: 'code-review' }))?.title).toBe(
      'This skill needs a model',
    );
    expect(turnNotice(turn('a', { status: 'denied' }))?.retry).toBe(true);
    expect(turnNotice(turn('a', { status: 'blocked' }))?.hint).toMatch(/allow/);
  });

  it('treats an instruction skill without a model as the no-model case', () => {
    const t = turn('a', {
      status: 'failure',
      error: 'meeting-notes is an instruction skill and no model is configured: open Settings → Model',
    });
    expect(needsModel(t)).toBe(true);
    expect(turnNotice(t)?.title).toBe('This skill needs a model');
    const now = turn('c', {
      status: 'failure',
      error:
        'translate-zh-en is an instruction skill: a model follows its steps. No model configured: choose a provider in Settings.',
    });
    expect(needsModel(now)).toBe(true);
    expect(needsModel(turn('b', { status: 'failure', error: 'exit code 1' }))).toBe(false);
  });
});

describe('a model that did not answer', () => {
  const step = (status: 'error' | 'success') => ({
    id: 'm1',
    kind: 'model' as const,
    name: 'openai-compatible/m',
    status,
    error: status === 'error' ? '429: rate-limited; wait and retry.' : undefined,
  });

  it('blames the model, not the skill, and offers the model settings', () => {
    const t = turn('a', { status: 'failure', skill: 'translate-zh-en', steps: [step('error')] });
    expect(turnNotice(t)).toMatchObject({ title: 'The model did not answer', modelSettings: true });
    expect(turnNotice(t)?.hint).toMatch(/^The skill is not at fault/);
    // Plain chat ran no skill: the hint does not mention one.
    const plain = turnNotice({ ...t, skill: null, status: 'error' });
    expect(plain?.title).toBe('The model did not answer');
    expect(plain?.hint).not.toMatch(/skill/);
  });

  it('still says the skill failed when the model answered', () => {
    const t = turn('a', { status: 'failure', error: 'exit code 1', steps: [step('success')] });
    expect(turnNotice(t)).toMatchObject({ title: 'The skill failed' });
    expect(turnNotice(t)?.modelSettings).toBeFalsy();
  });
});

describe('tool arguments', () => {
  it('summarises them on one line', () => {
    expect(argumentsSummary({ path: 'references/api.md' })).toBe('path: references/api.md');
    expect(argumentsSummary({ script: 'scripts/a.py', args: ['-v'] })).toBe(
      'script: scripts/a.py, args: ["-v"]',
    );
    expect(argumentsSummary({})).toBe('');
    expect(argumentsSummary({ task: 'x'.repeat(200) })).toHaveLength(90);
  });
});

describe('an answer and its steps', () => {
  const at = (id: string, kind: ChatStep['kind'], offset?: number): ChatStep => ({
    id,
    kind,
    name: id,
    status: 'success',
    ...(offset === undefined ? {} : { answer_offset: offset }),
  });
  const shape = (answer: string, steps: ChatStep[]) =>
    answerParts(answer, steps).map((p) => (p.kind === 'text' ? p.text : p.steps.map((s) => s.id).join('+')));

  it('puts each step where the answer stood when it began', () => {
    const answer = 'Let me look.\n\nHere it is.';
    const steps = [at('run', 'run', 0), at('m0', 'model', 0), at('t0', 'tool', 12), at('ok', 'approval', 12)];
    expect(shape(answer, [...steps, at('m1', 'model', 12)])).toEqual([
      'run+m0',
      'Let me look.',
      't0+ok+m1',
      '\n\nHere it is.',
    ]);
  });

  it('puts a card added when its run ended beside that run, before the text it produced', () => {
    const answer = 'Warm.\n\nGreetings.';
    const steps = [at('run', 'run', 0), at('m0', 'model', 0), at('t0', 'tool', 5), at('also', 'run', 0)];
    expect(shape(answer, steps)).toEqual(['run+m0+also', 'Warm.', 't0', '\n\nGreetings.']);
  });

  it('keeps the keys of parts already shown as the turn grows', () => {
    const before = answerParts('Let me look.', [at('run', 'run', 0), at('t0', 'tool', 12)]);
    const after = answerParts('Let me look.\n\nDone.', [at('run', 'run', 0), at('t0', 'tool', 12)]);
    expect(after.slice(0, 3).map((p) => p.key)).toEqual(before.map((p) => p.key));
  });

  it('shows steps of turns saved without offsets first, as before', () => {
    expect(shape('All done.', [at('run', 'run'), at('t0', 'tool')])).toEqual(['run+t0', 'All done.']);
  });

  it('drops text that is only whitespace and clamps offsets past the text it holds', () => {
    expect(shape('Hi.\n\n', [at('t0', 'tool', 3), at('t1', 'tool', 5), at('t2', 'tool', 99)])).toEqual([
      'Hi.',
      't0+t1+t2',
    ]);
  });

  it('hides the lone model step of plain chat', () => {
    expect(shape('Hello.', [at('m0', 'model', 0)])).toEqual(['Hello.']);
  });
});
