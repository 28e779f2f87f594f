import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteCandidate, RouteResult } from '../../../shared/contract';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import { calibrate } from './calibration';
import { implicitTriggers } from './implicit';
import type { RoutingIndex } from './lexicon';
import { explainMatch, matchQuery } from './match';
import { evaluateCalibration, fitCalibration, querySet } from './quality/fit';
import { route } from './router';
import { lemmaOf, terms } from './text';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';
import { segment, subWords, translate } from './zh';

/** Third-party style skills: no declared triggers, the way most corpus skills are written. */
const md = skillMd;
const SKILLS: Record<string, string> = {
  'weather/SKILL.md': md('weather', 'Current weather and forecasts for a city: rain, temperature and wind.'),
  'car-rental/SKILL.md': md('car-rental', 'Compares automobile rental prices at airports and stations.'),
  'slide-maker/SKILL.md': md(
    'slide-maker',
    'Creates PowerPoint presentations from an outline. Use when the user asks for a slide deck, pitch deck or training slides.',
  ),
  'meeting-recap/SKILL.md': md(
    'meeting-recap',
    'Summarizes meeting transcripts into decisions and action items.',
  ),
  'pdf-tools/SKILL.md': md(
    'pdf-tools',
    'Edits the pages of PDF files. Not for downloading files or installers.',
  ),
  'file-download/SKILL.md': md('file-download', 'Downloads files and installers from a URL into a folder.'),
  'invoice-zh/SKILL.md': md('invoice-zh', '整理发票和收据，生成报销表格。'),
  'code-feedback/SKILL.md': md('code-feedback', 'Reviews pull requests on GitHub and leaves comments.'),
  'doc-writer/SKILL.md': md('doc-writer', 'Writes project documentation in the house style.'),
  'home-camera/SKILL.md': md(
    'home-camera',
    'Grabs snapshots from home cameras.',
    '## When to use\n\n- "show me the front door camera"\n- check who rang the doorbell\n\n## Setup\n\nInstall it.',
  ),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-lexical-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});

const run = (query: string): RouteResult => route(index, query, defaultConfig(), readyContext());
const find = (result: RouteResult, name: string): RouteCandidate | undefined =>
  result.candidates.find((c) => c.name === name);
const evidence = (query: string, name: string) => {
  const match = matchQuery(index, analyzeQuery(query));
  const doc = index.docs.find((d) => d.name === name)!;
  return explainMatch(index, doc, match);
};

describe('implicit triggers (issue 10 §2)', () => {
  it('come from the name, the "Use when …" items, when_to_use and the body, below declared ones', () => {
    const slide = index.docs.find((d) => d.name === 'slide-maker')!;
    const found = implicitTriggers(slide.metadata).map((t) => `${t.origin}:${t.phrase}`);
    expect(found).toEqual(
      expect.arrayContaining(['name:slide maker', 'description:slide deck', 'description:training slides']),
    );
    const camera = index.docs.find((d) => d.name === 'home-camera')!;
    expect(camera.implicit.map((t) => t.text)).toEqual(
      expect.arrayContaining(['show me the front door camera']),
    );
    const hit = find(run('I need training slides for the onboarding week'), 'slide-maker')!;
    expect(hit.factors.trigger_match.value).toBe(0.75);
    expect(hit.status).toBe('selected');
  });

  it('strip a lead-in ("the user asks to …") only as whole words, never the start of a word', () => {
    const metadata = {
      ...index.docs.find((d) => d.name === 'slide-maker')!.metadata,
      name: 'x',
      description: 'Use when the user asks to format JSON, together with others, or for asking questions.',
    };
    const phrases = implicitTriggers(metadata, ['Your Reality Check:']).map((t) => t.phrase);
    expect(phrases).toEqual(
      expect.arrayContaining(['format JSON', 'together with others', 'asking questions']),
    );
    expect(phrases).toContain('Your Reality Check:');
    expect(phrases.some((p) => /^(?:mat|gether|ing|r) /.test(p))).toBe(false);
  });

  it('a skill that declares nothing is still picked by its name, in English and Chinese', () => {
    expect(run("what's the weather in Paris this weekend").plan.primary).toBe('weather');
    expect(run('明天伦敦会下雨吗').plan.primary).toBe('weather');
  });
});

describe('lexical semantics (issue 10 §3)', () => {
  it('lemmatizes irregular forms from WordNet', () => {
    expect(lemmaOf('ran')).toBe('run');
    expect(lemmaOf('mice')).toBe('mouse');
    expect(terms('she wrote notes')).toEqual(terms('write note'));
  });

  it('expands WordNet synonyms and derived forms, worth less than the word itself', () => {
    const car = analyzeQuery('rent a car')[1];
    const automobile = car.variants.find((v) => v.term === terms('automobile')[0])!;
    expect(automobile.via).toBe('synonym');
    expect(automobile.weight).toBeLessThan(1);
    expect(run('rent a car at the airport').plan.primary).toBe('car-rental');
    const derived = analyzeQuery('an explanation')[0].variants.find((v) => v.term === terms('explain')[0]);
    expect(derived?.via).toBe('synonym');
    expect(evidence('give me a summary of the meeting transcript', 'meeting-recap')).toEqual(
      expect.arrayContaining([expect.objectContaining({ word: 'summary', via: 'lexicon' })]),
    );
  });

  it('uses the curated domain lexicon for what WordNet lacks (PR → pull request)', () => {
    expect(run('review my PR please').candidates[0].name).toBe('code-feedback');
    expect(evidence('review my PR please', 'code-feedback')).toEqual(
      expect.arrayContaining([expect.objectContaining({ word: 'pr', via: 'lexicon' })]),
    );
  });

  it('knows that stepping through code is what a debugger does', () => {
    const step = analyzeQuery('step through this failing test').find((g) => g.text === 'step');
    expect(step?.variants).toEqual(
      expect.arrayContaining([expect.objectContaining({ term: terms('debugger')[0], via: 'lexicon' })]),
    );
  });

  it('knows a README is documentation', () => {
    expect(find(run('could you draft a readme for my project?'), 'doc-writer')).toBeDefined();
    expect(evidence('could you draft a readme for my project?', 'doc-writer')).toEqual(
      expect.arrayContaining([expect.objectContaining({ word: 'readme', via: 'lexicon' })]),
    );
  });

  it('segments Chinese like jieba and finds the dictionary words inside long ones', () => {
    expect(segment('明天伦敦会下雨吗')).toEqual(['明天', '伦敦', '会', '下雨', '吗']);
    expect(subWords('实时行情')).toEqual(['实时', '行情']);
    // 前 and 后 alone are positions in time (睡前 "before sleep"), not "front" and "back".
    expect(analyzeQuery('睡前放点白噪音').map((g) => g.text)).not.toContain('前');
  });

  it('bridges Chinese and English with CC-CEDICT, both ways', () => {
    expect(translate('天气')).toContain('weather');
    expect(evidence('明天伦敦会下雨吗', 'weather')).toEqual(
      expect.arrayContaining([expect.objectContaining({ word: '下雨', via: 'translation' })]),
    );
    // An English request reaches a skill written in Chinese through its words' translations.
    expect(run('organize my invoices and receipts for reimbursement').plan.primary).toBe('invoice-zh');
  });

  it('reads a word with two readings by its everyday one first (便宜 cheap, 东西 thing)', () => {
    expect(translate('便宜')[0]).toBe('cheap');
    expect(translate('东西')[0]).toBe('thing');
    expect(translate('地方')).toContain('place');
    expect(translate('地方').indexOf('place')).toBeLessThan(translate('地方').indexOf('region'));
  });

  it('meets a Chinese skill by its words and their glosses, not by synonyms of glosses of glosses', () => {
    // 表格 (in its description) is glossed "form" in the index: an English "form" reaches it, and
    // so does a Chinese word glossed "form" (表单) …
    expect(evidence('form', 'invoice-zh')).toEqual([
      expect.objectContaining({ word: 'form', via: 'exact', fields: ['translation'] }),
    ]);
    expect(evidence('表单', 'invoice-zh')).toEqual([
      expect.objectContaining({ word: '表单', via: 'translation', fields: ['translation'] }),
    ]);
    // … but not 班级 (class → the synonym "form", as in a school's sixth form): a WordNet
    // synonym of a Chinese word's gloss meets a skill's English, never its own glossed Chinese.
    expect(analyzeQuery('班级')[0].variants).toEqual(
      expect.arrayContaining([expect.objectContaining({ term: 'form', via: 'synonym' })]),
    );
    expect(evidence('班级', 'invoice-zh')).toEqual([]);
    // Nor does a synonym of an English word ("shape" → form): two loose hops, from the user's word
    // and from the skill's, had an English request about cloud config meet a Chinese game.
    expect(analyzeQuery('shape')[0].variants).toEqual(
      expect.arrayContaining([expect.objectContaining({ term: 'form', via: 'synonym' })]),
    );
    expect(evidence('shape', 'invoice-zh')).toEqual([]);
    expect(evidence('收据', 'invoice-zh')).toEqual([expect.objectContaining({ word: '收据', via: 'exact' })]);
  });

  it('weighs the glosses of a skill written in Chinese as the text they add', async () => {
    // One Chinese word brings up to six English keywords. Counted as no length, a skill written in
    // Chinese held its glosses' everyday words (play, back, time) as densely as a short English
    // skill says one word, and a role-play game met English requests about recordings and config.
    const dir = tempDir('skilldeck-gloss-length-');
    writeTree(dir, {
      'quest-zh/SKILL.md': md('quest-zh', '游戏，修炼，渡劫，飞升，转世，传承'),
      'quest-en/SKILL.md': md('quest-en', '游戏 cultivation crossing tribulation ascension rebirth legacy'),
    });
    const quests = indexOf(await catalogOf(dir));
    const [zh, en] = ['quest-zh', 'quest-en'].map((name) => quests.docs.find((d) => d.name === name)!);
    // As many words, the same length, the same gloss of 游戏 …
    const game = terms('game')[0];
    expect(zh.length).toBe(en.length);
    expect(zh.tf.get(game)).toBe(en.tf.get(game));
    // … but the Chinese skill's other words are glossed too, so "game" is less of what it says.
    expect(quests.normalizedTf(zh, game)).toBeLessThan(0.8 * quests.normalizedTf(en, game));
  });

  it('reads a name with a version or size as that name too (sha256 → SHA-256, python3 → Python)', () => {
    const variants = (word: string) => analyzeQuery(word)[0].variants.map((v) => `${v.term}:${v.weight}`);
    expect(variants('sha256')).toEqual(['sha256:1', 'sha:0.8']);
    expect(variants('python3')).toEqual(['python3:1', 'python:0.8']);
    // Two letters or a word of digits alone name nothing.
    expect(variants('md5')).toEqual(['md5:1']);
    expect(variants('2024')).toEqual(['2024:1']);
  });

  it('does not count the user’s payload (a city, a name) against a skill', () => {
    const plain = find(run('weather forecast'), 'weather')!;
    const withCity = find(run('weather forecast for Zyxtown'), 'weather')!;
    expect(withCity.factors.intent_match.value).toBeCloseTo(plain.factors.intent_match.value, 2);
  });

  it('still vetoes by negation, also when the query reached the skill through a synonym', () => {
    const result = run('download the installer files');
    expect(result.plan.primary).toBe('file-download');
    expect(find(result, 'pdf-tools')?.factors.intent_match.value ?? 0).toBeLessThan(0.2);
  });
});

describe('calibration (issue 10 §2)', () => {
  const base = { coverage: 0.5, relative: 1, strength: 1, catalog: Math.log(100), chinese: 0 };

  it('maps evidence to a probability that only rises with it', () => {
    const p = calibrate(base);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    expect(calibrate({ ...base, strength: 2 })).toBeGreaterThan(p);
    expect(calibrate({ ...base, relative: 0.5 })).toBeLessThan(p);
    // The same evidence reached through Chinese glosses reads as strong as the user's own words.
    expect(calibrate({ ...base, chinese: 1 })).toBeGreaterThan(p);
  });

  it('is fitted for the decision at T: the most precision@1 whose false triggers stay in budget', () => {
    const sets = [
      querySet(
        'lexical skills',
        index,
        [
          { query: 'current weather forecast with rain and wind for Berlin', expect: ['weather'], tags: [] },
          { query: 'rent an automobile at the station', expect: ['car-rental'], tags: [] },
          {
            query: 'summarize the meeting transcripts into action items',
            expect: ['meeting-recap'],
            tags: [],
          },
          { query: 'what is the capital of France', expect: [], tags: [] },
          { query: 'write a poem about the sea', expect: [], tags: [] },
        ],
        (id) => path.basename(id),
      ),
    ];
    const fit = fitCalibration(sets, defaultConfig(), { budget: 0, strengths: [4, 7], catalogs: [0] });
    expect(fit.sets[0]).toMatchObject({ p_at_1: 1, false_trigger: 0 });
    // More bias would fire more: the fit sits at the edge of the budget, not below it.
    const looser = { ...fit.calibration, bias: fit.calibration.bias + 0.5 };
    expect(evaluateCalibration(sets, defaultConfig(), looser).sets[0].p_at_1).toBe(1);
  });

  it('reads the same for skills with and without declared triggers: T means "probably right"', () => {
    const declared = run('weather and calendar');
    expect(declared.threshold).toBe(0.65);
    // A third-party skill with no triggers gets there on its words alone.
    expect(find(run('current weather forecast with rain and wind for Berlin'), 'weather')?.status).toBe(
      'selected',
    );
    expect(path.basename(find(run('rent a car at the airport'), 'car-rental')!.id)).toBe('car-rental');
  });
});
