import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import {
  CHAT_FORM_THRESHOLD,
  ChatForm,
  defaultChatForm,
  formFeatures,
  modelFromLines,
  modelToTsv,
  trainChatForm,
  type FormExample,
} from './chatForm';
import { SortedTable } from './lexdata';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

describe('the features of a message’s form', () => {
  it('keeps the words it knows, reduces the others to the suffix that says their form', () => {
    const f = formFeatures('my cat walked across the keyboard', new Set(['my', 'the', 'across']));
    expect(f).toContain('e:first2:my_X');
    expect(f).toContain('e:b:X_Xed');
    expect(f).toContain('e:b:Xed_across');
    expect(f).toContain('e:last:X');
    expect(f.some((x) => /cat|walked|keyboard/u.test(x))).toBe(false);
  });

  it('reads a Chinese message by its characters, a Latin word in it as one letter', () => {
    const f = formFeatures('你觉得Figma好用吗？', new Set(['你', '觉', '得', '吗', '？']));
    expect(f).toContain('z:first2:你_觉');
    expect(f).toContain('z:b:吗_？');
    expect(f).toContain('z:b:得_X');
    expect(f.some((x) => x.startsWith('e:'))).toBe(false);
  });

  it('has no length feature: short requests are not chat for being short', () => {
    const v = new Set<string>();
    expect(formFeatures('reindex products', v).sort()).toEqual(
      formFeatures('reindex the products', v).sort(),
    );
  });
});

const chat = [
  'honestly I think the new layout is worse',
  'my dog ate my homework lol',
  'is it just me or is this overrated?',
  'I finally quit my job, feels amazing',
  'what do you think about remote work?',
  'ugh my train was late again',
];
const requests = [
  'send the invoice to Dana',
  'convert this file to PDF',
  'book a table for two at 8',
  'can you summarize the meeting notes',
  'add milk to my shopping list',
  'schedule a call with Priya tomorrow',
];
const examples: FormExample[] = [
  ...chat.map((text) => ({ text, chat: true })),
  ...requests.map((text) => ({ text, chat: false })),
];

describe('training', () => {
  it('gives the same model for the same examples, and learns to tell them apart', () => {
    const model = trainChatForm(examples, { vocabularySize: 40 });
    expect(trainChatForm(examples, { vocabularySize: 40 })).toEqual(model);
    const form = new ChatForm(model);
    for (const text of chat) expect(form.chatProbability(text), text).toBeGreaterThan(0.5);
    for (const text of requests) expect(form.chatProbability(text), text).toBeLessThan(0.5);
  });

  it('writes and reads its table without losing a weight', () => {
    const model = trainChatForm(examples, { vocabularySize: 40 });
    const text = modelToTsv(model, 'test');
    const back = modelFromLines(text.split('\n').filter((l) => l && !l.startsWith('#')));
    expect(back).toEqual(model);
  });

  it('skips lines it cannot read instead of failing', () => {
    const model = modelFromLines(['v:my\t1', 'e:u:my\tnot-a-number', 'bias\t0.5', 'junk', 'e:u:x\t']);
    expect(model).toEqual({ vocabulary: ['my'], weights: { bias: 0.5 } });
  });

  it('reads the same from its table searched in place as from the model', () => {
    const model = trainChatForm(examples, { vocabularySize: 40 });
    const fromTable = new ChatForm(new SortedTable(modelToTsv(model, 'test')));
    for (const text of [...chat, ...requests, 'something else entirely, unseen words'])
      expect(fromTable.chatProbability(text), text).toBeCloseTo(
        new ChatForm(model).chatProbability(text),
        10,
      );
  });
});

describe('what the model may read', () => {
  const everythingChat = new ChatForm({ vocabulary: [], weights: { bias: 10 } });

  it('reads nothing into a few keywords: they have no wording', () => {
    expect(everythingChat.chatProbability('news headlines today')).toBeGreaterThan(0.99);
    expect(everythingChat.readsAsChat('news headlines today')).toBe(false);
    expect(everythingChat.readsAsChat('weather in Paris tomorrow')).toBe(false);
    expect(everythingChat.readsAsChat('I think the news headlines today were grim')).toBe(true);
  });

  it('reads nothing into a question about now or a day to come: it asks about the world’s state', () => {
    expect(everythingChat.readsAsChat('what is the weather in Paris this weekend?')).toBe(false);
    expect(everythingChat.readsAsChat('is the Model Y charged enough for tomorrow?')).toBe(false);
    expect(everythingChat.readsAsChat('明天伦敦会下雨吗')).toBe(false);
    expect(
      everythingChat.readsAsChat('If the exchange collapsed tomorrow, what would happen to my money?'),
    ).toBe(true);
    expect(everythingChat.readsAsChat('what is the capital of Australia, by the way?')).toBe(true);
  });

  it('leaves a creative piece to the creative rule, whose topic weighs as a topic', async () => {
    const dir = tempDir('skilldeck-chat-form-poems-');
    writeTree(dir, {
      'poem-writer/SKILL.md': skillMd('poem-writer', 'Writes poems, haiku and limericks on any theme.'),
      'weather/SKILL.md': skillMd(
        'weather',
        'Current weather and forecasts for a city: rain, temperature and wind.',
      ),
    });
    const poems = indexOf(await catalogOf(dir));
    const config = defaultConfig({ chatForm: everythingChat });
    const poem = 'write a short poem about the rain in Berlin for my mother';
    expect(route(poems, poem, config, readyContext()).plan.primary).toBe('poem-writer');
    const forecast = 'what will the rain and the wind be like in Berlin tomorrow';
    expect(route(poems, forecast, defaultConfig(), readyContext()).plan.primary).toBe('weather');
    expect(route(poems, forecast, config, readyContext()).plan.primary).toBeNull();
  });
});

describe('the shipped model', () => {
  // Messages written for this test, in no labelled set.
  it.each([
    'honestly the old Notion sidebar was so much nicer, am I crazy?',
    'wonder why they named it Kubernetes, sounds like a Greek island',
    '你说Figma会不会被Adobe收购',
  ])('reads chat no rule names as chat: %s', (text) => {
    expect(defaultChatForm()!.chatProbability(text)).toBeGreaterThanOrEqual(CHAT_FORM_THRESHOLD);
  });

  it.each([
    'send the Q3 report to Dana on Slack',
    'summarize the PDF in ~/Downloads/contract.pdf',
    'what’s on my Google Calendar tomorrow?',
    'dim the bedroom lights to 20 percent',
    '帮我把这张表格转成 PDF',
    '明天伦敦会下雨吗',
  ])('reads a request as a request: %s', (text) => {
    expect(defaultChatForm()!.chatProbability(text)).toBeLessThan(CHAT_FORM_THRESHOLD);
  });
});

describe('routing with the learned form', () => {
  let index: RoutingIndex;
  beforeAll(async () => {
    const dir = tempDir('skilldeck-chat-form-');
    writeTree(dir, {
      'notion/SKILL.md': skillMd(
        'notion',
        'Create and edit Notion pages, databases and the sidebar of a workspace.',
      ),
      'kubernetes/SKILL.md': skillMd('kubernetes', 'Inspect Kubernetes clusters: pods, deployments, logs.'),
    });
    index = indexOf(await catalogOf(dir));
  });

  it('chooses no skill for chat the rules do not name, and says why', () => {
    const query = 'honestly the old Notion sidebar was so much nicer, am I crazy?';
    const plan = route(index, query, defaultConfig(), readyContext()).plan;
    expect(plan.primary).toBeNull();
    expect(plan.routing_reason).toMatch(/worded like chat/u);
    // Without the model the rules read it as a task and the Notion skill fires.
    expect(route(index, query, defaultConfig({ chatForm: null }), readyContext()).plan.primary).toBe(
      'notion',
    );
  });

  it('still routes the request about the same thing', () => {
    const plan = route(
      index,
      'add a page to my Notion sidebar called Reading list',
      defaultConfig(),
      readyContext(),
    ).plan;
    expect(plan.primary).toBe('notion');
  });

  it('does not outweigh a skill the user names', () => {
    const query = '$notion honestly the old sidebar was so much nicer, am I crazy?';
    expect(route(index, query, defaultConfig(), readyContext()).plan.primary).toBe('notion');
  });
});
