import { beforeAll, describe, expect, it } from 'vitest';
import { FACTOR_NAMES, type FactorName } from '../../../shared/contract';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex, SkillDoc } from './lexicon';
import { recall, type Recalled } from './recall';
import {
  combine,
  intentFeatures,
  intentMatch,
  isPhraseHit,
  readiness,
  scoreCandidate,
  smoothedSuccess,
  triggerMatch,
  type ScoreQuery,
  type Weights,
} from './score';
import { isInformational } from './messageKind';
import { catalogOf, defaultConfig, indexOf, readyContext } from './testHelpers';
import { prepareQuery } from './text';

// The scorer's factors one by one, on skills the real loader read (router.test.ts routes whole
// queries through them).
const md = (fields: string) => `---\n${fields.trim()}\n---\n# Skill\n\nDo the thing.\n`;

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-score-');
  writeTree(dir, {
    'media-convert/SKILL.md': md(`
name: media-convert
description: Converts audio and video files between formats.
triggers: [convert video, 转换视频]
prerequisites:
  bins: [ffmpeg, ffprobe]
  anyBins: [vlc, mpv]
  env: [MEDIA_KEY]
`),
    'plain-notes/SKILL.md': md(`
name: plain-notes
description: Keeps plain text notes.
`),
    'image-tags/SKILL.md': md(`
name: image-tags
description: Tags photos by the objects in them. Not for editing photos.
`),
  });
  index = indexOf(await catalogOf(dir));
});
const doc = (name: string): SkillDoc => index.byName.get(name)!;
const recalled = (name: string, patch: Partial<Recalled> = {}): Recalled => ({
  doc: doc(name),
  source: 'semantic',
  matchedTriggers: [],
  implicitHits: [],
  ...patch,
});

describe('context_readiness', () => {
  it('counts each bin, the any-of bins once, and each variable, and names what is missing', () => {
    const has =
      (...bins: string[]) =>
      (bin: string) =>
        bins.includes(bin);
    const media = doc('media-convert');
    expect(
      readiness(media, readyContext({ hasBin: has('ffmpeg', 'ffprobe', 'mpv'), env: { MEDIA_KEY: 'k' } })),
    ).toEqual({ value: 1, missing: [] });
    expect(readiness(media, readyContext({ hasBin: has('ffmpeg'), env: { MEDIA_KEY: '' } }))).toEqual({
      value: 0.25,
      missing: ['bin:ffprobe', 'bin:vlc|mpv', 'env:MEDIA_KEY'],
    });
    expect(readiness(media, readyContext({ hasBin: has('vlc'), env: { MEDIA_KEY: 'k' } }))).toEqual({
      value: 0.5,
      missing: ['bin:ffmpeg', 'bin:ffprobe'],
    });
  });

  it('is full for a skill without prerequisites, and when the caller assumes them met', () => {
    expect(readiness(doc('plain-notes'), readyContext({ hasBin: () => false }))).toEqual({
      value: 1,
      missing: [],
    });
    const none = readyContext({ hasBin: () => false, assumeReady: true });
    expect(readiness(doc('media-convert'), none)).toEqual({ value: 1, missing: [] });
  });
});

describe('trigger_match', () => {
  it('is 0.75 for an implicit hit, and 0.6 plus 0.15 of the best declared-trigger overlap otherwise', () => {
    const name = doc('media-convert').implicit.find((p) => p.origin === 'name')!;
    expect(triggerMatch(recalled('media-convert', { implicitHits: [name] }), prepareQuery('x'))).toBe(0.75);
    // "convert video": one of its two words is in the query.
    expect(triggerMatch(recalled('media-convert'), prepareQuery('convert this'))).toBeCloseTo(0.675, 10);
    expect(triggerMatch(recalled('media-convert'), prepareQuery('hello'))).toBe(0.6);
  });
});

describe('isPhraseHit', () => {
  it('is a declared trigger of several words or of two CJK characters, not a lone word', () => {
    const hit = (...matchedTriggers: string[]) => isPhraseHit(recalled('media-convert', { matchedTriggers }));
    expect(hit('convert video')).toBe(true);
    expect(hit('转换视频')).toBe(true);
    expect(hit('video', 'convert')).toBe(false);
    expect(hit(' video ')).toBe(false);
    expect(hit('视')).toBe(false);
    expect(hit('video', 'convert video')).toBe(true);
  });
});

describe('success_rate', () => {
  it('is Laplace-smoothed: half with no runs, moving a step per run', () => {
    expect(smoothedSuccess(0, 0)).toBe(0.5);
    expect(smoothedSuccess(2, 0)).toBe(0.25);
    expect(smoothedSuccess(2, 2)).toBe(0.75);
  });
});

describe('combine', () => {
  const values = (v: number): Record<FactorName, number> =>
    Object.fromEntries(FACTOR_NAMES.map((n) => [n, v])) as Record<FactorName, number>;
  const weights = (w: number): Weights => Object.fromEntries(FACTOR_NAMES.map((n) => [n, w])) as Weights;

  it('normalizes the weights to sum to 1 and rounds to four places', () => {
    const { factors, score } = combine(values(1 / 3), weights(2));
    expect(score).toBe(0.3333);
    for (const name of FACTOR_NAMES)
      expect(factors[name]).toEqual({ value: 0.3333, weight: 0.1667, contribution: 0.0556 });
  });

  it('clamps each value to [0, 1]', () => {
    const { factors, score } = combine({ ...values(2), cost: -1 }, weights(1));
    expect(factors.intent_match.value).toBe(1);
    expect(factors.cost).toEqual({ value: 0, weight: 0.1667, contribution: 0 });
    expect(score).toBe(0.8333);
  });

  it('scores 0 when every weight is 0, instead of dividing by it', () => {
    const { factors, score } = combine(values(1), weights(0));
    expect(score).toBe(0);
    expect(factors.trigger_match).toEqual({ value: 1, weight: 0, contribution: 0 });
  });
});

describe('intent_match', () => {
  const open = { disabled: new Set<string>(), neverAutoSelect: new Set<string>() };
  /** The query as the router hands it to the scorer, and the candidate recall made of `name`. */
  function scoring(query: string, name: string, informational = false) {
    const r = recall(index, query, 5, open);
    const q: ScoreQuery = {
      prepared: r.prepared,
      match: r.match,
      chat: informational ? 'question' : null,
      index,
    };
    const found = r.candidates.find((c) => c.doc.name === name) ?? recalled(name);
    return { q, r, found };
  }

  it('is full for a forced skill when nothing routable is left, and nothing for a semantic one', () => {
    const { q, found } = scoring('$plain-notes', 'plain-notes');
    expect(q.match.mass).toBe(0);
    expect(found.source).toBe('forced');
    expect(intentMatch(found, q)).toMatchObject({ value: 1, coverage: 1, coveredMass: 0 });
    expect(intentMatch(recalled('plain-notes'), q)).toMatchObject({ value: 0, coverage: 0 });
    expect(intentFeatures(found, q.match)).toEqual({
      coverage: 0,
      relative: 0,
      strength: 0,
      catalog: Math.log(3),
      chinese: 0,
    });
  });

  it('covers the query words the skill knows, and only those', () => {
    const { q, found } = scoring('tag these photos for Berlin', 'image-tags');
    const intent = intentMatch(found, q);
    expect([...intent.covered].sort()).toEqual(['photo', 'tag']);
    expect(intent.coveredMass).toBeGreaterThan(0);
    expect(intent.coverage).toBeGreaterThan(0);
    expect(intent.coverage).toBeLessThanOrEqual(1);
    const features = intentFeatures(found, q.match);
    expect(features.relative).toBe(1);
    // Its score passes the routable mass here: coverage stops at 1.
    expect(q.match.score(found.doc.index)).toBeGreaterThan(q.match.mass);
    expect(features.coverage).toBe(1);
    expect(features.strength).toBeCloseTo(q.match.score(found.doc.index) / q.match.unit, 10);
    expect(features.chinese).toBe(0);
  });

  it('reads the share of the routable mass a Chinese request carries in Chinese words', () => {
    const zh = scoring('给这些照片打标签', 'image-tags');
    expect(intentFeatures(zh.found, zh.q.match).chinese).toBe(1);
    const mixed = scoring('给这些 photos 打标签', 'image-tags');
    const share = intentFeatures(mixed.found, mixed.q.match).chinese;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1);
  });

  it('drops by twice the share of the query the description excludes', () => {
    const tag = scoring('tag photos and objects', 'image-tags');
    const edit = scoring('tag photos and objects, edit', 'image-tags');
    const tagged = intentMatch(tag.found, tag.q);
    const edited = intentMatch(edit.found, edit.q);
    expect(edited.covered.has('edit')).toBe(false);
    // "edit" is a quarter of the routable mass: coverage loses half, the value some of itself.
    const { match } = edit.q;
    expect(match.reach[match.groups.findIndex((g) => g.text === 'edit')] / match.mass).toBeCloseTo(0.25, 10);
    const share = Math.min(1, match.score(edit.found.doc.index) / match.mass);
    expect(edited.coverage).toBeCloseTo(share - 0.5, 10);
    expect(edited.value).toBeGreaterThan(0);
    expect(edited.value).toBeLessThan(tagged.value);
    expect(
      intentMatch(scoring('edit photos', 'image-tags').found, scoring('edit photos', 'image-tags').q).value,
    ).toBe(0);
  });

  it('is 0.6 of itself for an informational question, unless forced or a trigger phrase hit', () => {
    const plain = scoring('convert audio files', 'media-convert');
    const asked = scoring('convert audio files', 'media-convert', true);
    const value = intentMatch(plain.found, plain.q).value;
    expect(value).toBeGreaterThan(0);
    expect(intentMatch(asked.found, asked.q).value).toBeCloseTo(0.6 * value, 10);
    const forced = { ...asked.found, source: 'forced' as const };
    expect(intentMatch(forced, asked.q).value).toBe(intentMatch(forced, plain.q).value);
    const phrase = { ...asked.found, matchedTriggers: ['convert video'] };
    expect(intentMatch(phrase, asked.q).value).toBe(intentMatch(phrase, plain.q).value);
  });

  it('takes an embedding similarity over 0.45 as intent, and names it in the evidence', () => {
    const { q, found } = scoring('something for my holiday pictures', 'image-tags');
    const weights = defaultConfig().weights;
    const at = (similarity: number) =>
      scoreCandidate(
        found,
        { ...q, similarity: new Map([[found.doc.id, similarity]]) },
        weights,
        readyContext(),
      );
    const lexical = scoreCandidate(found, q, weights, readyContext()).factors.intent_match.value;
    expect(at(0.65).factors.intent_match.value).toBe(Math.max(lexical, 0.5));
    expect(at(0.95).factors.intent_match.value).toBe(1);
    expect(at(0.3).factors.intent_match.value).toBe(lexical);
    expect(at(0.65).evidence[0]).toEqual({ kind: 'embedding', query: 'image-tags', matched: 'cosine 0.65' });
  });
});

describe('isInformational', () => {
  it('reads the question after a lead-in colon too', () => {
    for (const [instruction, task] of [
      ['Quick question', 'Quick question: how do I reset a router?'],
      ['问一下', '问一下：如何重置路由器'],
    ])
      expect(isInformational(instruction, task), task).toBe(true);
  });
});
