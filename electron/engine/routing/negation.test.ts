import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const md = skillMd;

const SKILLS: Record<string, string> = {
  'weather/SKILL.md': md(
    'weather',
    'Current weather and forecasts for any city. Use when the user asks about weather, temperature, rain or umbrellas.',
  ),
  'weathercli/SKILL.md': md('weathercli', 'Weather forecasts from the command line.'),
  'pdf-summarizer/SKILL.md': md('pdf-summarizer', 'Summarizes PDF documents into key points.'),
  'unit-converter/SKILL.md': md(
    'unit-converter',
    'Converts units of length, weight and temperature. Use when the user asks to convert miles, km, kg or degrees.',
  ),
  'translator/SKILL.md': md('translator', 'Translates text between languages, 翻译文本。'),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-negation-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});
const routeOf = (query: string) => route(index, query, defaultConfig(), readyContext());
const statusOf = (query: string, name: string) => routeOf(query).candidates.find((c) => c.name === name);

// A message that rules a skill out, or asks for none, is obeyed: the words that name the skill
// neither force it nor count for it (they had forced it: "don't use the weather skill" contains
// "use the weather skill").
describe('a message that says which skill not to use', () => {
  it('never forces the skill it rules out, in English and Chinese', () => {
    expect(routeOf('use the weather skill for Paris tomorrow').plan.primary).toBe('weather');
    expect(routeOf("don't use the weather skill, just tell me if umbrellas help").plan.primary).toBeNull();
    expect(routeOf('do not use $weather — is rain likely in Paris tomorrow?').plan.primary).not.toBe(
      'weather',
    );
    expect(routeOf('不要用 weather 技能，直接告诉我伦敦冬天冷不冷').plan.primary).toBeNull();
  });

  it('vetoes it, saying why, when the rest of the message still matches it', () => {
    const weather = statusOf("don't use $weather, what's the weather forecast for Paris?", 'weather');
    expect(weather).toMatchObject({ status: 'vetoed', reason: 'the message says not to use it' });
  });

  it('leaves the other skills to be chosen', () => {
    expect(routeOf('instead of the weather skill, use weathercli for the Paris forecast').plan.primary).toBe(
      'weathercli',
    );
  });
});

describe('a skill ruled out by its bare name or with a typographic apostrophe', () => {
  // Phones and macOS type ’ for ': "don’t use the weather skill" held "use the weather skill",
  // and forced the very skill it ruled out.
  it("reads don’t as don't", () => {
    expect(routeOf('don’t use the weather skill, just tell me if umbrellas help').plan.primary).toBeNull();
    const none = routeOf("don’t use any skill, what's the weather forecast for Berlin tomorrow?");
    expect(none.plan.primary).toBeNull();
    expect(none.plan.no_skill).toBe(true);
    expect(routeOf('tell me a joke, don’t convert anything').plan.primary).toBeNull();
  });

  it('vetoes a skill named without "skill" after it, and routes the rest', () => {
    // The order was set aside as words, and the skill it named was then chosen for the rest.
    const named = routeOf("don't use weather, just give me the weather forecast for Paris");
    expect(named.candidates.find((c) => c.name === 'weather')).toMatchObject({
      status: 'vetoed',
      reason: 'the message says not to use it',
    });
    expect(named.plan.primary).not.toBe('weather');
    for (const query of [
      'summarize report.pdf without pdf-summarizer',
      'summarize report.pdf, but not with pdf-summarizer',
      'instead of pdf-summarizer, summarize report.pdf in three bullets',
    ]) {
      const r = routeOf(query);
      expect(r.plan.primary, query).not.toBe('pdf-summarizer');
      expect(r.candidates.find((c) => c.name === 'pdf-summarizer')?.status, query).toBe('vetoed');
    }
  });

  it('hands on the rest of the message as the task, without the separators the span left', () => {
    const task = (query: string) => routeOf(query).plan.parameters.task;
    expect(task("don't use the weather skill, just tell me if umbrellas help")).toBe(
      'just tell me if umbrellas help',
    );
    expect(task('summarize report.pdf, but not with pdf-summarizer')).toBe('summarize report.pdf');
    expect(task('不要用 weather 技能，直接告诉我伦敦冬天冷不冷')).toBe('直接告诉我伦敦冬天冷不冷');
    expect(task('$pdf-summarizer: report.pdf')).toBe('report.pdf');
  });

  it('reads a plain word that only starts a phrase as no name', () => {
    const r = routeOf("plan Sunday's picnic without weather worries: what's the forecast for Paris?");
    expect(r.candidates.find((c) => c.name === 'weather')?.status).not.toBe('vetoed');
  });
});

describe('a message that asks for no skill', () => {
  it('goes to plain chat, saying so, whatever its words match', () => {
    const query = "without using any skill, what's the weather forecast for Berlin tomorrow?";
    expect(routeOf("what's the weather forecast for Berlin tomorrow?").plan.primary).toBe('weather');
    const r = routeOf(query);
    expect(r.plan.primary).toBeNull();
    expect(r.plan.routing_reason).toBe('The message asks for no skill; plain chat.');
    expect(r.candidates.find((c) => c.name === 'weather')).toMatchObject({
      status: 'vetoed',
      reason: 'the message asks for no skill',
    });
    expect(
      routeOf("I don't want to use a skill for this: summarize the weather report").plan.primary,
    ).toBeNull();
    expect(routeOf('不用任何技能，告诉我明天伦敦的天气预报').plan.primary).toBeNull();
  });

  it('still runs a skill the same message names with $', () => {
    expect(routeOf('without using any skill, $pdf-summarizer report.pdf').plan.primary).toBe(
      'pdf-summarizer',
    );
  });

  it('reads "use a skill" as no name ("a" is no skill), and routes the rest', () => {
    const r = routeOf('use a skill to get the weather forecast for Paris');
    expect(r.plan.routing_reason).not.toMatch(/No routable skill named/);
    expect(r.plan.primary).toBe('weather');
  });
});

describe('a message that says what not to do', () => {
  it('counts the words of the order for no skill, in English and Chinese', () => {
    expect(routeOf('convert 5 miles to km').plan.primary).toBe('unit-converter');
    const joke = routeOf('do not convert anything, just tell me a joke');
    expect(joke.plan.primary).toBeNull();
    expect(joke.plan.routing_reason).toMatch(
      /^Set aside what the message rules out: “do not convert anything”\./,
    );
    expect(routeOf("tell me a joke, don't convert anything").plan.primary).toBeNull();
    expect(routeOf('no need to convert the miles, just say hi').plan.primary).toBeNull();
    expect(routeOf('把这段话翻译成英文：你好').plan.primary).toBe('translator');
    expect(routeOf('别翻译这段话，直接告诉我它是什么意思').plan.primary).toBeNull();
    expect(routeOf('tell me a joke about miles instead of converting them').plan.primary).toBeNull();
    expect(routeOf('rather than converting the miles, tell me a joke').plan.primary).toBeNull();
    expect(routeOf('直接告诉我这句话的意思，而不是翻译它').plan.primary).toBeNull();
  });

  it('leaves statements and reminders alone: they still ask for the thing', () => {
    expect(routeOf("I don't know how to convert 5 miles to km").plan.primary).toBe('unit-converter');
    expect(routeOf("don't forget to convert 5 miles to km").plan.primary).toBe('unit-converter');
    // 别人 is "other people", not "don't".
    expect(routeOf('把别人发来的这段话翻译成英文').plan.primary).toBe('translator');
  });

  it('rules out the order only up to its condition: "until …" says what is wanted', () => {
    const r = routeOf("don't tell me it's finished until you've converted 5 miles to km");
    expect(r.plan.primary).toBe('unit-converter');
    expect(r.plan.routing_reason).toMatch(/“don't tell me it's finished”/);
  });
});
