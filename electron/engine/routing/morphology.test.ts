import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery, GENERIC_WEIGHT, sameStem } from './analyze';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { stem, terms } from './text';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const md = skillMd;

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-morphology-');
  writeTree(dir, {
    'linear/SKILL.md': md('linear', 'Manage Linear issues, projects and cycles.'),
    'code-comments/SKILL.md': md('code-comments', 'Adds explanatory comments and docstrings to source code.'),
    'pdf-extract/SKILL.md': md('pdf-extract', 'Extract text and tables from PDF files.'),
    'translator/SKILL.md': md('translator', 'A translator for documents between any two languages.'),
  });
  index = indexOf(await catalogOf(dir));
});
const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;

describe('inflections and the final e', () => {
  it('meets every form of a word, and keeps apart two words the final e tells apart', () => {
    for (const forms of [
      ['plane', 'planes'],
      ['plan', 'plans', 'planning', 'planned'],
      ['hope', 'hoping', 'hopes'],
      ['hop', 'hopping'],
      ['care', 'caring'],
      ['note', 'notes', 'noting'],
      ['write', 'writing', 'writer'],
      ['sing', 'singing'],
      ['date', 'dating', 'dated'],
      ['manage', 'managing', 'manager'],
      ['compute', 'computer', 'computing'],
      ['speed', 'speeding'],
      ['feed', 'feeds'],
      ['agree', 'agreed'],
    ])
      for (const form of forms.slice(1))
        expect(terms(form), `${form} ~ ${forms[0]}`).toEqual(terms(forms[0]));
    for (const [a, b] of [
      ['plane', 'plan'],
      ['hope', 'hop'],
      ['care', 'car'],
      ['note', 'not'],
      ['site', 'sit'],
      ['feed', 'fee'],
      // A lemma of WordNet's in -s is no plural (news, means).
      ['news', 'new'],
      ['means', 'mean'],
    ])
      expect(stem(a), `${a} ≠ ${b}`).not.toBe(stem(b));
  });
});

describe('derivational stemming, confirmed by WordNet (issue 10 §3 lemmatization)', () => {
  it('meets a derived noun with its verb, and British spellings with American ones', () => {
    for (const [derived, base] of [
      ['extraction', 'extract'],
      ['translator', 'translate'],
      ['translation', 'translate'],
      ['analysis', 'analyze'],
      ['deployment', 'deploy'],
      ['notifications', 'notify'],
      ['systematically', 'systematic'],
      ['optimization', 'optimize'],
      ['organisation', 'organize'],
      ['description', 'describe'],
    ])
      expect(terms(derived), `${derived} ~ ${base}`).toEqual(terms(base));
  });

  it('leaves words apart when WordNet does not know the base, or the base is too short to trust', () => {
    expect(stem('nation')).not.toBe(stem('nate'));
    expect(stem('mission')).not.toBe(stem('miss'));
    expect(stem('motor')).not.toBe(stem('mot'));
    expect(stem('million')).not.toBe(stem('mill'));
  });

  it('routes a request worded with the noun to the skill that says the verb, and back', () => {
    expect(primary('text extraction from this scanned PDF')).toBe('pdf-extract');
    expect(primary('translate this contract into German')).toBe('translator');
  });
});

describe('WordNet derived forms only when they share the stem', () => {
  it('keeps addition for add and drops linear, which WordNet links through "additive"', () => {
    expect(sameStem('add', 'addition')).toBe(true);
    expect(sameStem('add', 'linear')).toBe(false);
    expect(sameStem('explanation', 'explain')).toBe(true);
    expect(sameStem('explanation', 'describe')).toBe(false);
    expect(analyzeQuery('add a step')[0].variants.map((v) => v.shown)).not.toContain('linear');
  });

  it('no longer sends 加上注释 (add comments) to a skill named linear', () => {
    const terms = analyzeQuery('加上').flatMap((g) => g.variants.map((v) => v.term));
    expect(terms).not.toContain('linear');
    expect(primary('给这段复杂的代码加上注释')).toBe('code-comments');
  });
});

describe('CC-CEDICT glosses in their order of commonness', () => {
  it('weighs a later sense of a Chinese word below its first one', () => {
    const weight = (word: string, english: string) =>
      analyzeQuery(word)[0].variants.find((v) => v.shown === english && v.via === 'translation')?.weight ?? 0;
    expect(weight('笑话', 'joke')).toBeGreaterThan(weight('笑话', 'mock'));
    expect(weight('笑话', 'mock')).toBeGreaterThan(0);
    expect(weight('加上', 'plus')).toBeGreaterThan(weight('加上', 'top'));
  });
});

describe('request words in any inflection (data/generic.txt)', () => {
  it('weighs "fetches", "creating" and "wrote" like fetch, create and write: how a user asks, not which skill', () => {
    for (const word of ['fetches', 'creating', 'wrote', 'drafts'])
      expect(analyzeQuery(`${word} the quarterly report`)[0].weight, word).toBe(GENERIC_WEIGHT);
    expect(analyzeQuery('quarterly report')[0].weight).toBe(1);
  });

  it('reads what is left of a contraction as no word (you’ve, I’ll, don’t, isn’t)', () => {
    expect(terms("you've pasted it, I'll check, we're late, don't, isn't")).toEqual(
      terms('you pasted it, I check, we late, do, is'),
    );
  });
});
