import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { implicitTriggers } from './implicit';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { creativeKind } from './messageKind';
import { terms } from './text';
import { catalogOf, defaultConfig, indexOf, readyContext } from './testHelpers';

/**
 * A handful of skills written the plainest way (name + one-line description, no triggers), as a
 * user's first install or a test's fixture is: words carry little IDF among eight skills, so the
 * name and the kind of request have to do the work.
 */
const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nDo the thing.\n`;
const SKILLS: Record<string, string> = {
  'weather-lookup/SKILL.md': md(
    'weather-lookup',
    'Look up the current weather for a city. Use when the user asks about weather, temperature or rain.',
  ),
  'csv-to-json/SKILL.md': md('csv-to-json', 'Convert CSV files to JSON.'),
  'pdf-extract/SKILL.md': md('pdf-extract', 'Extract text and tables from PDF documents.'),
  'save-note/SKILL.md': md('save-note', "Save a short note to the user's notes folder."),
  'swift-expert/SKILL.md': md('swift-expert', 'Builds iOS apps with SwiftUI and UIKit.'),
  'wedding-planner/SKILL.md': md(
    'wedding-planner',
    'Plans weddings: venues, guest lists, budgets and timelines.',
  ),
  'joke-mock/SKILL.md': md('mock-data', 'Generates mock data and fake fixtures for tests.'),
  'translate/SKILL.md': md('translate', 'Translate text between languages.'),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-small-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});
const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;

describe('a small catalog of plainly written skills', () => {
  it('is named by the part of a name that says what it is for, not by "lookup" or "expert"', () => {
    const names = (name: string) =>
      implicitTriggers({ ...index.docs[0].metadata, name, description: '' })
        .filter((t) => t.origin === 'name')
        .map((t) => t.phrase);
    // Never by the generic part alone; typed as one word, the whole name still names it (AgentMail).
    expect(names('weather-lookup')).toEqual(['weather', 'weatherlookup']);
    expect(names('swift-expert')).toEqual(['swift', 'swiftexpert']);
    expect(names('github-client')).toEqual(['github', 'githubclient']);
    expect(names('invoice-organizer')).toContain('invoice organizer');
    expect(primary("what's the weather in Paris?")).toBe('weather-lookup');
    expect(primary('will it rain in London tomorrow?')).toBe('weather-lookup');
    expect(primary('convert data.csv to json')).toBe('csv-to-json');
    expect(primary('extract the text from report.pdf')).toBe('pdf-extract');
    expect(primary('save a note: buy milk')).toBe('save-note');
  });

  it('hears only a topic in a request to write a poem, a toast or a joke', () => {
    expect(primary('write a poem about rain')).toBeNull();
    expect(primary("Write a toast for my best friend's wedding")).toBeNull();
    expect(primary('tell me a joke about mock objects')).toBeNull();
    expect(primary('给我讲个笑话')).toBeNull();
    // The same topics asked as tasks still route.
    expect(primary('plan my wedding: venues and a guest list')).toBe('wedding-planner');
    expect(primary('generate mock data for the users table')).toBe('mock-data');
  });

  it('reads every kind of piece, however the request is put', () => {
    const kinds =
      'poem haiku limerick sonnet story tale fable song lyrics jingle joke pun riddle toast speech eulogy essay rap verse ode ballad slogan tagline message card wish greeting';
    for (const kind of kinds.split(' ')) {
      expect(creativeKind(`write a ${kind} about the sea`), kind).toBe(terms(kind)[0]);
      if (!/story|lyrics|speech|eulogy|wish/.test(kind))
        expect(creativeKind(`please write some ${kind}s for me`), `${kind}s`).not.toBeNull();
    }
    for (const plural of ['stories', 'speeches', 'eulogies', 'wishes'])
      expect(creativeKind(`write two ${plural}`), plural).not.toBeNull();
    for (const request of [
      'write me a poem',
      'write me  a poem',
      'tell us a joke',
      'tell us  a joke',
      'write  a poem',
      'write poems about rain',
      'write 12 poems',
      'write a short  poem',
      'make up a riddle',
      'come up with a slogan for my bakery',
      '给妈妈写一首生日的诗',
    ])
      expect(creativeKind(request), request).not.toBeNull();
  });

  it('reads the kind of piece a request asks to write, in English and Chinese', () => {
    expect(creativeKind('write a poem about rain')).toBe('poem');
    expect(creativeKind('Compose a short funny limerick for my cat')).toBe('limerick');
    expect(creativeKind('给我写一首关于秋天的诗')).toBe('诗');
    expect(creativeKind('讲个笑话')).toBe('笑话');
    // The piece may come after a long topic: 个关于会计和 QuickBooks 的 is nineteen characters.
    expect(creativeKind('给我讲个关于会计和 QuickBooks 的笑话吧')).toBe('笑话');
    expect(creativeKind('Write a birthday message for my grandmother')).toBe('messag');
    expect(creativeKind('帮我想一句生日祝福语送给妈妈')).toBeNull();
    expect(creativeKind('给妈妈写一段生日祝福语')).toBe('祝福语');
    expect(creativeKind('write a Python script that parses logs')).toBeNull();
    expect(creativeKind('tell me the weather')).toBeNull();
    expect(creativeKind('know any jokes about people who cheat at Boggle?')).toBe(terms('joke')[0]);
    expect(creativeKind('got some messages from Bob, summarize them')).toBeNull();
    expect(creativeKind('I have a story idea, help me outline the design doc')).toBeNull();
  });

  it('weighs the topic of a joke like the topic of a remark, even when it is a skill’s name', async () => {
    const dir = tempDir('skilldeck-small-obsidian-');
    writeTree(dir, {
      ...SKILLS,
      // As the corpus skill says it (openclaw__skills/obsidian-plugin-dev).
      'obsidian-plugin-dev/SKILL.md': md(
        'obsidian-plugin',
        'Create and develop Obsidian plugins from scratch. Use when building a new Obsidian plugin, scaffolding from the sample-plugin-plus template, or developing plugin features.',
      ),
    });
    const withObsidian = indexOf(await catalogOf(dir));
    const run = (query: string) => route(withObsidian, query, defaultConfig(), readyContext()).plan.primary;
    expect(run('tell me a joke about Obsidian users and their 400 plugins')).toBeNull();
    expect(run('scaffold an Obsidian plugin that counts words')).toBe('obsidian-plugin');
  });

  it('lets a skill that writes such pieces take the request', async () => {
    const dir = tempDir('skilldeck-small-poems-');
    writeTree(dir, {
      ...SKILLS,
      'poem-writer/SKILL.md': md('poem-writer', 'Writes poems, haiku and limericks on any theme.'),
    });
    const withPoems = indexOf(await catalogOf(dir));
    expect(route(withPoems, 'write a poem about rain', defaultConfig(), readyContext()).plan.primary).toBe(
      'poem-writer',
    );
  });
});
