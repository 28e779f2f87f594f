import { describe, expect, it } from 'vitest';
import {
  EVIDENCE_META,
  evidenceText,
  fallbackLabel,
  forcedHint,
  forcedNames,
  formatContribution,
  formatEquation,
  formatMs,
  formatRate,
  formatScore,
  modelChoice,
  statusReason,
} from './format';
import type { RouteCandidate, RouteEvent } from '../../../../shared/contract';

describe('routing formatters', () => {
  it('writes scores, contributions and the tooltip equation', () => {
    expect(formatScore(0.6549)).toBe('0.65');
    expect(formatScore(Number.NaN)).toBe('—');
    expect(formatContribution(0.32)).toBe('0.320');
    expect(formatEquation({ value: 0.8, weight: 0.4, contribution: 0.32 })).toBe('0.80 × 0.40 = 0.320');
  });

  it('writes latencies from microseconds to seconds', () => {
    expect(formatMs(0.004)).toBe('<0.01 ms');
    expect(formatMs(0.042)).toBe('0.04 ms');
    expect(formatMs(0.61)).toBe('0.61 ms');
    expect(formatMs(3.25)).toBe('3.3 ms');
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(1400)).toBe('1.4 s');
    expect(formatMs(null)).toBe('—');
  });

  it('writes rates as percents and missing data as a dash', () => {
    expect(formatRate(0.5)).toBe('50%');
    expect(formatRate(0.053)).toBe('5.3%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(null)).toBe('—');
  });

  it('names fallback steps', () => {
    expect(fallbackLabel({ type: 'skill', id: '/x', name: 'pdf-to-text' })).toBe('pdf-to-text');
    expect(fallbackLabel({ type: 'generic_chat' })).toBe('plain chat');
    expect(fallbackLabel({ type: 'ask_user' })).toBe('ask the user');
  });

  it('finds $name and /name at word starts only', () => {
    expect(forcedNames('$json-format this please')).toEqual(['json-format']);
    expect(forcedNames('use /pdf-to-text and $Save-Note')).toEqual(['pdf-to-text', 'save-note']);
    expect(forcedNames('costs $5 a/b')).toEqual(['5']);
  });

  it('tells the composer which $names force a skill and which name none', () => {
    const names = new Set(['json-format', 'save-note']);
    expect(forcedHint('$json-format {"a":1}', names)).toEqual({ forcing: ['json-format'], unknown: [] });
    // A half-typed or misspelt name forces nothing: it must not read as "Forcing json".
    expect(forcedHint('$json', names)).toEqual({ forcing: [], unknown: ['json'] });
    // A price is not a skill name at all.
    expect(forcedHint('it costs $5', names)).toEqual({ forcing: [], unknown: [] });
    expect(forcedHint('is $TSLA up, and $BRK.B? $3.50 a share', names)).toEqual({ forcing: [], unknown: [] });
    expect(forcedHint('$tsla', names)).toEqual({ forcing: [], unknown: ['tsla'] });
    expect(forcedHint('$Save-Note and $save-note', names)).toEqual({ forcing: ['save-note'], unknown: [] });
  });
});

describe('evidence (issue 10 §6)', () => {
  it('quotes a word or trigger, shows a route as word → match, and names the field', () => {
    expect(
      evidenceText({ kind: 'declared_trigger', query: '收据', matched: '收据', field: 'declared' }),
    ).toBe('“收据” · triggers');
    expect(evidenceText({ kind: 'translation', query: '下雨', matched: 'rain', field: 'description' })).toBe(
      '下雨 → rain · description',
    );
    expect(evidenceText({ kind: 'synonym', query: 'car', matched: 'automobile' })).toBe('car → automobile');
    // A request's clear leader is about the candidates, not a word.
    expect(
      evidenceText({ kind: 'lead', query: 'the request', matched: 'ahead of every other candidate by 0.23' }),
    ).toBe('ahead of every other candidate by 0.23');
  });

  it('keeps the status part of a reason; the matched tail becomes chips', () => {
    expect(statusReason('best score 0.85 ≥ T = 0.65 — matched trigger “收据”')).toBe(
      'best score 0.85 ≥ T = 0.65',
    );
    expect(statusReason('score 0.45 is below T = 0.65')).toBe('score 0.45 is below T = 0.65');
    expect(Object.keys(EVIDENCE_META)).toContain('translation');
  });
});

describe('modelChoice', () => {
  const weather = { id: '/s/weather', name: 'weather', score: 0.52 } as RouteCandidate;
  const route = (
    primary_id: string | null,
    result?: RouteEvent['result'],
  ): Pick<RouteEvent, 'plan' | 'candidates' | 'result'> => ({
    plan: { primary_id } as RouteEvent['plan'],
    candidates: [weather],
    result,
  });

  it('names the skill the model ran when the router chose none', () => {
    const ran = { status: 'success' as const, skill_id: '/s/weather', fallback_used: false };
    expect(modelChoice(route(null, { ...ran, chosen_by_model: true }))).toEqual({
      id: '/s/weather',
      name: 'weather',
      score: 0.52,
    });
    // One the router never recalled (a small catalog is listed whole): named, with no score.
    expect(
      modelChoice(route(null, { ...ran, skill_id: '/s/umbrella', skill: 'umbrella', chosen_by_model: true })),
    ).toEqual({ id: '/s/umbrella', name: 'umbrella', score: null });
    // A routed primary, a turn still running, plain chat, or a skill no longer among the
    // candidates: nothing to name.
    expect(modelChoice(route('/s/weather', { ...ran, chosen_by_model: true }))).toBeNull();
    expect(modelChoice(route(null))).toBeNull();
    expect(modelChoice(route(null, { status: 'success', fallback_used: false }))).toBeNull();
    expect(modelChoice(route(null, ran))).toBeNull();
    expect(modelChoice(route(null, { ...ran, skill_id: '/s/gone', chosen_by_model: true }))).toBeNull();
  });
});
