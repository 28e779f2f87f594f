import { describe, expect, it } from 'vitest';
import { candidate, turn } from './testTurns';
import type { ChatStep } from '../../../../shared/contract';
import {
  answerParts,
  argumentsSummary,
  needsModel,
  noticeError,
  retryAt,
  routeChip,
  saidInNotice,
  turnNotice,
} from './turnView';

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

  it('a server that asked to wait: the wait is when Retry opens, and the notice says it once', () => {
    const at = '2030-01-01T00:00:20.000Z';
    const waited = {
      ...step('error'),
      error: '429: limited; it asks to wait 20 s before retrying.',
      retry_at: at,
    };
    const t = turn('a', {
      status: 'error',
      steps: [waited],
      error: 'The model did not answer: 429: limited; it asks to wait 20 s before retrying.',
    });
    expect(retryAt(t)).toBe(Date.parse(at));
    expect(retryAt(turn('b', { steps: [step('error')] }))).toBeNull();
    // Only the model that asked is held: another one is asked at once.
    expect(retryAt(t, 'openai-compatible/m')).toBe(Date.parse(at));
    expect(retryAt(t, 'openai-compatible/')).toBe(Date.parse(at));
    expect(retryAt(t, 'openai-compatible/other')).toBeNull();
    expect(retryAt(t, 'ollama/')).toBeNull();
    const notice = turnNotice(t);
    expect(notice).toMatchObject({ title: 'The model’s server asked to wait', retry: true });
    // The title says the model did not answer; the error says why, and the step's row does not repeat it.
    const shown = noticeError(t, notice!);
    expect(shown).toBe('429: limited; it asks to wait 20 s before retrying.');
    expect(saidInNotice(waited, shown)).toBe(true);
    expect(saidInNotice({ ...waited, error: 'something else.' }, shown)).toBe(false);
  });

  it('an answer that broke off says so, not that the model did not answer', () => {
    const t = turn('a', {
      status: 'error',
      answer: 'The tone ',
      steps: [step('error')],
      error: "The model's response broke off: it dropped. What streamed before the break is kept.",
    });
    expect(turnNotice(t)?.title).toBe('The model’s answer broke off');
    expect(noticeError(t, turnNotice(t)!)).toBe('It dropped. What streamed before the break is kept.');
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
