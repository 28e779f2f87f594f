import { describe, expect, it } from 'vitest';
import type { FactorName } from '../../../shared/contract';
import { tempDir, writeTree } from '../../testing/fixtures';
import { asksForWork } from './messageKind';
import type { Recalled } from './recall';
import { route } from './router';
import { CLEAR_LEAD, combine, LEAD_REACH, liftClearLeader, type Scored } from './score';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd as md } from './testHelpers';

// A request's clear leader (score.ts liftClearLeader): the unseen catalogs of rounds 15–18 left a
// right skill first but a little under T in 27 of 440 requests, most of them alone with evidence.

const weights = defaultConfig().weights;
const T = defaultConfig().threshold;

/** A scored candidate whose only free factor is intent (trigger 0.6, success 0.5, ready, medium cost). */
function candidate(name: string, intent: number, extra: Partial<Scored> = {}): Scored {
  const values: Record<FactorName, number> = {
    intent_match: intent,
    trigger_match: 0.6,
    success_rate: 0.5,
    context_readiness: 1,
    cost: 0.5,
    conflict: 1,
  };
  const { factors, score } = combine(values, weights);
  const recalled = {
    doc: { name },
    source: 'semantic',
    matchedTriggers: [],
    implicitHits: [],
  } as unknown as Recalled;
  return {
    recalled,
    factors,
    score,
    covered: new Set(),
    coveredMass: 0,
    coverage: 0,
    matchedAntiTriggers: [],
    evidence: [],
    missing: [],
    runs: 0,
    successRate: 0.5,
    ...extra,
  };
}
/** The intent that gives a candidate of `candidate` this score. */
const intentFor = (score: number) => (score - 0.395) / 0.4;

describe('the clear leader of a request', () => {
  it('rises by LEAD_REACH when a little under T and far ahead of the next; the others keep their scores', () => {
    const top = candidate('tts', intentFor(0.6));
    const next = candidate('supernote', intentFor(0.42));
    liftClearLeader([next, top], T, weights);
    expect(top.score).toBeCloseTo(0.6 + LEAD_REACH, 3);
    expect(top.score).toBeGreaterThanOrEqual(T);
    expect(top.factors.intent_match.value).toBeCloseTo(intentFor(0.6) + LEAD_REACH / 0.4, 3);
    expect(top.evidence[0]).toMatchObject({ kind: 'lead' });
    expect(next.score).toBeCloseTo(0.42, 3);
  });

  it('stays put too far under T, already over it, too close to the next, or not free to be chosen', () => {
    const cases: [Scored, Scored][] = [
      [candidate('a', intentFor(T - LEAD_REACH - 0.01)), candidate('b', intentFor(0.4))],
      [candidate('a', intentFor(T + 0.01)), candidate('b', intentFor(0.4))],
      [candidate('a', intentFor(0.62)), candidate('b', intentFor(0.62 - CLEAR_LEAD + 0.01))],
      [candidate('a', intentFor(0.62), { missing: ['bin:tts'] }), candidate('b', intentFor(0.4))],
      [
        candidate('a', intentFor(0.62), { matchedAntiTriggers: ['no audio'] }),
        candidate('b', intentFor(0.4)),
      ],
    ];
    for (const [top, next] of cases) {
      const before = top.score;
      liftClearLeader([top, next], T, weights);
      expect(top.score).toBe(before);
      expect(top.evidence).toEqual([]);
    }
  });

  it('is read only for a message that asks for work in so many words', () => {
    for (const query of [
      'Read this paragraph out loud and send me the mp3',
      'can you get me the next train from Wien to Salzburg',
      '帮我查一下明天的火车',
      // The order comes after the news: a clause that opens on an order verb.
      "we're out of eggs and milk, jot them down for my next shop",
      'the invoice came in late again, so forward it to Dana',
    ])
      expect(asksForWork(query), query).toBe(true);
    for (const query of [
      "What's your faourite kind of weather?",
      'Rain again in Berglin, of course',
      'What is the GDP of Japan roughly?',
      "we're out of eggs and milk again, typical",
    ])
      expect(asksForWork(query), query).toBe(false);
  });

  it('routes a request a little under T to its skill, and says why; the same words as chat stay chat', async () => {
    const dir = tempDir('skilldeck-lead-');
    writeTree(dir, {
      'tts/SKILL.md': md(
        'tts',
        'Reads text aloud: text to speech with a natural voice, saved as an mp3 file.',
      ),
      'weather/SKILL.md': md('weather', 'Current weather and forecasts for a city.'),
      'notes/SKILL.md': md('notes', 'Saves and searches your notes.'),
    });
    const index = indexOf(await catalogOf(dir));
    const request = route(
      index,
      'read this paragraph out loud as an mp3 for me',
      defaultConfig(),
      readyContext(),
    );
    const tts = request.candidates.find((c) => c.name === 'tts')!;
    expect(request.plan.primary).toBe('tts');
    expect(tts.evidence?.[0]).toMatchObject({ kind: 'lead' });
    expect(tts.reason).toMatch(/clear leader of a request/);
    const chat = route(index, 'I love paragraphs read out loud', defaultConfig(), readyContext());
    expect(chat.plan.primary).toBeNull();
  });
});
