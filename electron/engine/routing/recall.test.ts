import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { implicitHits, MAX_RULE_CANDIDATES, recall, type Eligibility } from './recall';
import { catalogOf, indexOf } from './testHelpers';

// Phase 1 on its own (routing spec §6.1), on skills the real loader read: what is forced,
// reported, recalled by rule or lexically, and what the task text keeps.
const md = (fields: string) => `---\n${fields.trim()}\n---\n# Skill\n\nDo the thing.\n`;
const REPORTERS = MAX_RULE_CANDIDATES + 2;

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-recall-');
  const tree: Record<string, string> = {
    'weather-now/SKILL.md': md(`
name: weather-now
description: Reports the current weather forecast for a city.
triggers: [weather]
`),
    'menu-only/SKILL.md': md(`
name: menu-only
description: Lists the menu of the canteen.
user-invocable: false
`),
    'data-files/SKILL.md': md(`
name: data-files
description: Keeps data files. Use when reconciling ledgers, budgets, or a quarterly report.
`),
    // A display name with blanks, in a folder of another name (99 corpus skills are named so).
    'braintree_payments/SKILL.md': md(`
name: Braintree Automation
description: Automates Braintree payments, customers and refunds.
`),
    'quiet-notes/SKILL.md': md(`
name: quiet-notes
description: Keeps quiet notes about meetings.
disable-model-invocation: true
`),
  };
  // More skills share the trigger "quarterly report" than rule recall may take.
  for (let i = 0; i < REPORTERS; i++)
    tree[`reporter-${i}/SKILL.md`] = md(`
name: reporter-${i}
description: Writes the quarterly report of department ${i}.
triggers: [quarterly report]
`);
  writeTree(dir, tree);
  index = indexOf(await catalogOf(dir));
});

const open: Eligibility = { disabled: new Set(), neverAutoSelect: new Set() };
const sources = (query: string, topK = 5, eligibility = open) =>
  recall(index, query, topK, eligibility).candidates.map((c) => `${c.source}:${c.doc.name}`);

describe('forced names', () => {
  it('takes each skill once and reports each unknown name once', () => {
    const r = recall(index, '$weather-now and $weather-now, $nope $nope', 5, open);
    expect(r.candidates.filter((c) => c.source === 'forced').map((c) => c.doc.name)).toEqual(['weather-now']);
    expect(r.unknownForced).toEqual(['nope']);
  });

  it('reads a name without the punctuation that ends a sentence', () => {
    expect(sources('please use $weather-now.')).toContain('forced:weather-now');
    expect(sources('$weather-now: Paris')).toContain('forced:weather-now');
    expect(recall(index, '$weather-now: Paris', 5, open).unknownForced).toEqual([]);
  });

  it('reports a skill the user may not invoke, or a disabled one, as unknown', () => {
    expect(recall(index, '$menu-only today', 5, open).unknownForced).toEqual(['menu-only']);
    const disabled = { ...open, disabled: new Set(['weather-now']) };
    expect(recall(index, '$weather-now', 5, disabled).unknownForced).toEqual(['weather-now']);
  });

  it('leaves the task text without the markers, spaces collapsed', () => {
    const r = recall(index, '  $weather-now   for   Paris  use the weather-now skill ', 5, open);
    expect(r.task).toBe('for Paris');
    expect(recall(index, '$nope for Paris', 5, open).task).toBe('$nope for Paris');
  });

  it('reads a name with blanks however it is typed, and the folder name, taking the words it used', () => {
    for (const query of [
      '$Braintree Automation list my customers',
      '$braintree-automation list my customers',
      '/braintree_automation list my customers',
      'use the Braintree Automation skill to list my customers',
      'use the braintree automation skill to list my customers',
      '使用 Braintree Automation 技能 list my customers',
      '$braintree-payments list my customers',
    ]) {
      const r = recall(index, query, 5, open);
      expect(r.candidates[0], query).toMatchObject({
        source: 'forced',
        doc: { name: 'Braintree Automation' },
      });
      expect(r.task, query).toMatch(/^(?:to )?list my customers$/);
      expect(r.unknownForced, query).toEqual([]);
    }
    // Only as many words as name it: "$Braintree" alone names nothing.
    expect(recall(index, '$Braintree list my customers', 5, open).unknownForced).toEqual(['Braintree']);
    // A sentence that only looks like "use … skill" names nothing and is not reported.
    const sentence = recall(index, 'use your very best skill to help', 5, open);
    expect(sentence.unknownForced).toEqual([]);
    expect(sentence.candidates.some((c) => c.source === 'forced')).toBe(false);
  });

  it('forces an explicit-only skill, which nothing else recalls', () => {
    expect(sources('quiet notes about meetings')).not.toContain('semantic:quiet-notes');
    expect(sources('$quiet-notes about meetings')).toContain('forced:quiet-notes');
  });
});

describe('rule recall', () => {
  it('keeps at most MAX_RULE_CANDIDATES skills that share a trigger, and recalls no one twice', () => {
    const all = sources('the quarterly report please', 50);
    expect(all.filter((s) => s.startsWith('rule:'))).toHaveLength(MAX_RULE_CANDIDATES);
    expect(new Set(all.map((s) => s.split(':')[1])).size).toBe(all.length);
    const forced = sources('$reporter-3 the quarterly report', 50);
    expect(forced.filter((s) => s.endsWith(':reporter-3'))).toEqual(['forced:reporter-3']);
  });
});

describe('lexical recall', () => {
  it('takes at most MAX_RULE_CANDIDATES skills by their implicit triggers, then the top k', () => {
    // Every reporter's name says "reporter".
    const implicit = recall(index, 'reporter', 0, open).candidates;
    expect(implicit).toHaveLength(MAX_RULE_CANDIDATES);
    expect(implicit.every((c) => c.source === 'semantic' && c.implicitHits.length === 1)).toBe(true);
    expect(recall(index, 'reporter', 1, open).candidates).toHaveLength(MAX_RULE_CANDIDATES + 1);
  });
});

describe('semantic recall', () => {
  it('merges only skills the lexical sources did not take and that may be auto-selected', () => {
    const docs = ['weather-now', 'quiet-notes', 'menu-only', 'menu-only'].map((n) => index.byName.get(n)!);
    const asked: number[] = [];
    const semantic = (_instruction: string, k: number) => {
      asked.push(k);
      return docs;
    };
    const r = recall(index, 'weather for Paris', 3, open, semantic);
    expect(asked).toEqual([3]);
    expect(r.candidates.map((c) => `${c.source}:${c.doc.name}`)).toEqual([
      'rule:weather-now',
      'semantic:menu-only',
    ]);
  });
});

describe('the payload after "instruction:"', () => {
  const groups = (query: string) => recall(index, query, 5, open).match.groups.map((g) => [g.text, g.weight]);

  it('adds its first new words at 0.4 of their weight, never a word the instruction has', () => {
    const alone = Object.fromEntries(groups('forecast Paris'));
    const both = groups('weather forecast: forecast Paris');
    expect(both.map(([text]) => text)).toEqual(['weath', 'forecast', 'paris']);
    expect(both[2][1]).toBeCloseTo(0.4 * (alone.paris as number), 10);
    expect(groups('weather forecast')).toEqual(both.slice(0, 2));
  });

  it('reads at most eight of them', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima';
    expect(groups(`weather: ${words}`).length).toBe(1 + 8);
    // …and only from its first 400 characters.
    const texts = (query: string) => groups(query).map(([text]) => text);
    expect(texts('weather: alpha bravo')).toContain('bravo');
    expect(texts(`weather: ${'alpha '.repeat(70)}bravo`)).not.toContain('bravo');
  });
});

describe('what a forced skill carries', () => {
  it('the triggers and implicit phrases the rest of the message hits', () => {
    const forced = recall(index, '$weather-now weather now', 5, open).candidates[0];
    expect(forced.source).toBe('forced');
    expect(forced.matchedTriggers).toEqual(['weather']);
    expect(forced.implicitHits.map((p) => p.origin)).toContain('name');
    const bare = recall(index, '$weather-now', 5, open).candidates[0];
    expect(bare).toMatchObject({ matchedTriggers: [], implicitHits: [] });
  });
});

describe('implicit triggers', () => {
  const hits = (name: string, ...phrases: string[]) => {
    const doc = index.byName.get(name)!;
    const terms = new Set(doc.implicit.filter((p) => phrases.includes(p.text)).flatMap((p) => p.terms));
    return implicitHits(index, doc, terms).map((p) => p.text);
  };

  it('count a name whatever its words, and a "Use when" item of two rare words or more', () => {
    expect(index.byName.get('data-files')!.implicit.map((p) => p.text)).toEqual(
      expect.arrayContaining(['reconciling ledgers', 'budgets', 'quarterly report']),
    );
    expect(hits('data-files', 'data files')).toEqual(['data files']);
    expect(hits('data-files', 'reconciling ledgers')).toEqual(['reconciling ledgers']);
  });

  it('not a lone word of the list, nor an item of words every skill uses', () => {
    expect(hits('data-files', 'budgets')).toEqual([]);
    // Every reporter's description says "quarterly report" too.
    expect(hits('data-files', 'quarterly report')).toEqual([]);
  });
});

describe('a name shared by siblings (issue 10 §2: implicit triggers)', () => {
  let siblings: RoutingIndex;
  beforeAll(async () => {
    const dir = tempDir('skilldeck-siblings-');
    writeTree(dir, {
      'discord/SKILL.md': md('name: discord\ndescription: Sends messages and manages channels on Discord.'),
      'discord-doctor/SKILL.md': md(
        'name: discord-doctor\ndescription: Diagnoses bots that cannot connect: expired tokens, missing intents.',
      ),
      'convex/SKILL.md': md('name: convex\ndescription: Builds apps on the Convex backend.'),
      'mails-so/SKILL.md': md(
        'name: mails-so\ndescription: Verifies e-mail addresses with the Mails.so API.',
      ),
      'convex-crons/SKILL.md': md(
        'name: convex-crons\ndescription: Adds scheduled cron jobs to a Convex app.',
      ),
      'convex-retention/SKILL.md': md(
        'name: convex-retention\ndescription: Deletes expired rows from a Convex app on a schedule.',
      ),
    });
    siblings = indexOf(await catalogOf(dir));
  });
  const named = (query: string) =>
    Object.fromEntries(
      recall(siblings, query, 5, open).candidates.map((c) => [
        c.doc.name,
        c.implicitHits.filter((h) => h.origin === 'name').map((h) => h.text),
      ]),
    );

  it('names every skill whose name holds the name the query used', () => {
    // "Discord" names discord, and discord-doctor no less.
    expect(named('my Discord bot cannot connect, diagnose the token')['discord-doctor']).toEqual(['discord']);
  });

  it('shares only the most specific name the query used', () => {
    // "convex crons" is named; convex-retention holds "convex" but not "crons".
    const hits = named('add a nightly cron to my Convex app that deletes expired sessions');
    expect(hits['convex-crons']).toEqual(['convex crons']);
    expect(hits['convex-retention']).toEqual([]);
  });

  it('names a skill whose name holds a stop word only by its whole name (mails-so is not "mails")', () => {
    expect(named('shrink this PDF so I can mail it')['mails-so']).toEqual([]);
    expect(named('check these addresses with mails so')['mails-so']).toEqual(['mails so']);
  });
});
