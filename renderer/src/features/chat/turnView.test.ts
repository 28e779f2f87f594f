import { describe, expect, it } from 'vitest';
import { candidate, turn } from './testTurns';
import { argumentsSummary, needsModel, routeChip, turnNotice } from './turnView';

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
