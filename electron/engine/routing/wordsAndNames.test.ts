import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { analyzeQuery } from './analyze';
import { nameShare, withBrands } from './match';
import { isEnglishWord } from './spelling';
import { nameTerms, stem, terms } from './text';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd as md } from './testHelpers';

// Round 11 of the third-party dev set (quality/corpus/README.md): what a batch of requests the
// router had never seen showed about Chinese words' weight, product names, -er nouns and names that
// are a verb's form.

const SKILLS: Record<string, string> = {
  // A Chinese-written skill says the everyday words of any Chinese request: 写, 分析, 问题, 今天.
  'essay-tutor/SKILL.md': md(
    'essay-tutor',
    '高考语文作文辅导：帮学生分析问题，写作文，批改作文。',
    '## 用法\n\n今天写什么？先分析题目，记下问题和心情，再写提纲。',
  ),
  'agent-diary/SKILL.md': md(
    'agent-diary',
    "Keeps the agent's own diary: a daily entry from its perspective on what it did and how it went.",
  ),
  // English skills that make "write", "analyze" and "problem" the common words they are.
  'doc-writer/SKILL.md': md('doc-writer', 'Writes project documentation and READMEs.'),
  'email-writer/SKILL.md': md('email-writer', 'Writes polite emails and replies.'),
  'poem-writer/SKILL.md': md('poem-writer', 'Writes poems and song lyrics on any theme.'),
  'report-writer/SKILL.md': md('report-writer', 'Writes weekly status reports from notes.'),
  'log-analyzer/SKILL.md': md('log-analyzer', 'Analyzes server logs to find the problem behind errors.'),
  'data-analyzer/SKILL.md': md('data-analyzer', 'Analyzes CSV data and answers questions about it.'),
  'troubleshooter/SKILL.md': md('troubleshooter', 'Diagnoses a problem step by step and suggests fixes.'),
  'peopledatalabs-automation/SKILL.md': md(
    'peopledatalabs-automation',
    'Automate PeopleDataLabs tasks via Rube MCP.',
  ),
  'people-notes/SKILL.md': md('people-notes', 'Remembers facts about people you know.'),
  'flux-image/SKILL.md': md('flux-image', 'Generates pictures from a prompt with Black Forest Labs models.'),
  'google-calendar/SKILL.md': md('google-calendar', 'Lists and creates calendar events.'),
  'google-drive/SKILL.md': md('google-drive', 'Finds and shares files in your drive.'),
  'felt-automation/SKILL.md': md(
    'felt-automation',
    'Automate Felt tasks via Rube MCP: maps, layers and elements.',
  ),
  'better-auth/SKILL.md': md('better-auth', 'Better Auth: sign-in and sessions for TypeScript apps.'),
  // A product only one skill is for, beside a skill the request's other words name.
  'docmosis-automation/SKILL.md': md('docmosis-automation', 'Automate Docmosis tasks via Rube MCP.'),
  'pdf-to-docx/SKILL.md': md('pdf-to-docx', 'Converts PDF files to DOCX documents.'),
  'perplexityai-automation/SKILL.md': md(
    'perplexityai-automation',
    'Automate Perplexityai tasks via Rube MCP.',
  ),
  // A name whose other word is generic ("agent"): AgentMail is still its whole name.
  'agent-mail-automation/SKILL.md': md('agent-mail-automation', 'Automate Agent Mail tasks via Rube MCP.'),
  'inbox-zero/SKILL.md': md('inbox-zero', 'Lists new messages in your inbox and archives the rest.'),
  'openai-whisper-api/SKILL.md': md('openai-whisper-api', 'Transcribe audio with the OpenAI Whisper API.'),
  'local-whisper/SKILL.md': md('local-whisper', 'Transcribe audio locally with Whisper, no upload.'),
  'kit-automation/SKILL.md': md('kit-automation', 'Automate Kit tasks via Rube MCP.'),
  '-2chat-automation/SKILL.md': md('-2chat-automation', 'Automate 2chat tasks via Rube MCP.'),
  'sms-sender/SKILL.md': md('sms-sender', 'Sends text messages to a phone number and reads the replies.'),
  'highlevel-automation/SKILL.md': md('highlevel-automation', 'Automate Highlevel tasks via Rube MCP.'),
  'sap-successfactors-automation/SKILL.md': md(
    'sap-successfactors-automation',
    'Automate SAP SuccessFactors tasks via Rube MCP.',
  ),
  'org-chart/SKILL.md': md('org-chart', 'Finds who manages whom and which cost center a person is on.'),
  'lobster-tracker/SKILL.md': md('lobster-tracker', 'Tracks lobster catch logs for fishing boats.'),
  'habit-flow/SKILL.md': md(
    'habit-flow',
    'Builds daily habits and keeps your streaks in flow.',
    'Check in today.',
  ),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-crosslingual-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});

const top = (query: string) => route(index, query, defaultConfig(), readyContext()).candidates[0]?.name;

describe('a Chinese word weighs what its meaning weighs', () => {
  it('is as common as the first English sense it bridges to', () => {
    // Only one skill says 写 or 分析, but many say "write" and "analyze": the words are common.
    expect(index.idf('写')).toBeLessThanOrEqual(index.idf('write') + 1e-9);
    expect(index.idf('分析')).toBeLessThanOrEqual(index.idf('analyz') + 1e-9);
    // A word whose meaning no skill uses keeps the weight of its own spelling.
    expect(index.idf('高考')).toBeGreaterThan(index.idf('write'));
  });

  it('so a Chinese skill does not win a request by its everyday words', () => {
    // "Write a diary entry from your own perspective: what you did today" — the English diary
    // skill, not the essay tutor that merely says 写, 今天 and 记下.
    expect(top('用你自己的视角写一篇日记，记下今天做了什么')).toBe('agent-diary');
    // Its own rare words still name it.
    expect(top('帮我批改这篇高考作文')).toBe('essay-tutor');
  });
});

describe('product names', () => {
  it('written as three words meet a skill that spells them as one', () => {
    expect(top('enrich jane@example.com with People Data Labs')).toBe('peopledatalabs-automation');
  });
});

describe('a product the user names', () => {
  it('is a word no dictionary has: Docmosis, not tweets, lobster or amazon', () => {
    expect(isEnglishWord('docmosis')).toBe(false);
    expect(isEnglishWord('blocknative')).toBe(false);
    for (const word of ['tweets', 'lobster', 'amazon', 'mastodon', 'templates'])
      expect(isEnglishWord(word), word).toBe(true);
  });

  it('may start with a digit when typed as a name (2Chat, 1Password)', () => {
    expect(top('send a text message from our 2Chat number to +44 7700 900123')).toBe('-2chat-automation');
    expect(top('send a text message to +44 7700 900123')).toBe('sms-sender');
  });

  it('names the tool: the request’s other words are what to do with it', () => {
    // pdf-to-docx is named by two of the request's words, docmosis-automation by one.
    expect(top('fill our offer_letter.docx template in Docmosis and send me the PDF')).toBe(
      'docmosis-automation',
    );
    expect(top('convert the PDF to DOCX')).toBe('pdf-to-docx');
  });

  it('names the toolkit that glues it to a suffix (Perplexity → perplexityai), when typed as a name', () => {
    expect(top('Ask Perplexity what changed in the EU AI Act for open models, with citations')).toBe(
      'perplexityai-automation',
    );
    const names = (query: string) =>
      route(index, query, defaultConfig(), readyContext()).candidates.map((c) => c.name);
    expect(names('my perplexity grows with every release note')).not.toContain('perplexityai-automation');
  });

  it('is named by its whole name typed as one word, a generic part and all (AgentMail)', () => {
    expect(top('Create a new AgentMail inbox called support-bot@ and list the messages in it')).toBe(
      'agent-mail-automation',
    );
  });

  it('glues a suffix only to a brand no name has as typed (Whisper names both whisper skills)', () => {
    const glued = (query: string) =>
      withBrands(index, analyzeQuery(query)).flatMap((g) => g.variants.map((v) => v.term));
    expect(glued('Ask Perplexity about it')).toContain('perplexityai');
    // openai-whisper-api's name glues to "whisperapi", but "Whisper" already names it (and local-whisper).
    expect(glued('transcribe it with Whisper')).not.toContain('whisperapi');
    expect(top('transcribe this meeting recording with a local Whisper, no upload')).toBe('local-whisper');
  });

  it('is named when its name is generic words only (kit-automation is Kit’s)', () => {
    const doc = index.docs.find((d) => d.name === 'kit-automation')!;
    expect(doc.implicit.filter((p) => p.origin === 'name').map((p) => p.terms)).toContainEqual(['kit']);
  });

  it('is named by a run of a CamelCase word’s parts (GoHighLevel → highlevel)', () => {
    expect(top('在 GoHighLevel 里把新线索都打上 webinar 标签')).toBe('highlevel-automation');
  });

  it('is the second word of a two-word name too (SAP SuccessFactors)', () => {
    expect(
      top('Look up Maria Keller in SuccessFactors — who is her manager and which cost center is she on?'),
    ).toBe('sap-successfactors-automation');
  });

  it('ranks the tool but does not make chat about it a request', () => {
    const result = route(
      index,
      'How does Docmosis actually render its templates?',
      defaultConfig(),
      readyContext(),
    );
    expect(result.candidates[0]?.name).toBe('docmosis-automation');
    expect(result.plan.primary).toBeNull();
  });
});

describe('the index’s flat name table', () => {
  it('reads each skill’s name as its own phrases do, the brand rule included', () => {
    // A copy of a skill is not the index's own object: nameShare walks its phrases then.
    let compared = 0;
    for (const doc of index.docs) {
      const own = doc.names.flatMap((phrase) => phrase.terms);
      const queries = [own, own.slice(0, 1), own.slice(1), [...own.slice(0, 1), 'calendar', 'flux'], []];
      for (const query of queries) {
        const queryTerms = new Set(query);
        expect(nameShare(doc, queryTerms, index)).toBe(nameShare({ ...doc }, queryTerms, index));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});

describe('a brand', () => {
  it('that only one skill’s name starts with stands for much of that name', () => {
    const doc = (name: string) => index.docs.find((d) => d.name === name)!;
    const share = (name: string, query: string) => nameShare(doc(name), new Set(terms(query)), index);
    expect(share('flux-image', 'flux')).toBeCloseTo(0.6);
    // Without the index (or the brand rule), one word of two.
    expect(nameShare(doc('flux-image'), new Set(terms('flux')))).toBeCloseTo(0.5);
    // Two names start with google: it is no one skill's brand.
    expect(share('google-calendar', 'google')).toBeCloseTo(0.5);
    expect(
      route(index, 'draw a picture of a fox in the snow with FLUX', defaultConfig(), readyContext()).plan
        .primary,
    ).toBe('flux-image');
  });
});

describe('stems', () => {
  it('cut -er off an agent noun but not off a noun that is no stem + er', () => {
    expect(stem('converter')).toBe(stem('convert'));
    expect(stem('planner')).toBe(stem('plan'));
    // "My cat broke the vase today": 花瓶 is glossed "flower vase", and flower is no flow-er.
    expect(stem('flower')).not.toBe(stem('flow'));
    expect(stem('number')).not.toBe(stem('numb'));
    // -ly leaves an adverb WordNet knows, not a product's name; a double end goes only where a
    // suffix made it (cutting → cut, not Cutt.ly's cutt; staffing stays staff).
    expect(stem('weekly')).toBe(stem('week'));
    expect(stem('raisely')).not.toBe(stem('raiser'));
    expect(stem('feedly')).not.toBe(stem('feed'));
    expect(stem('cutting')).toBe(stem('cut'));
    expect(stem('cutt')).not.toBe(stem('cut'));
    expect(stem('staffing')).toBe(stem('staff'));
    // A word WordNet lacks keeps its -er unless what is left is a word or an -ize verb.
    expect(stem('clawker')).not.toBe(stem('clawk'));
    expect(stem('linter')).toBe(stem('lint'));
    expect(stem('bundler')).toBe(stem('bundle'));
    expect(stem('tokenizer')).toBe(stem('tokenize'));
    const result = route(index, '我家猫今天把花瓶打碎了', defaultConfig(), readyContext());
    expect(result.plan.primary).toBeNull();
    expect(result.candidates.map((c) => c.reason).join(' ')).not.toMatch(/flower/);
  });
});

describe('a name that is a verb’s or an adjective’s form', () => {
  it('is the name, not the verb (Felt, Better Auth); a noun’s plural still meets its singular', () => {
    expect(nameTerms('felt-automation')).toContain('felt');
    expect(nameTerms('better auth')).toEqual([stem('better'), 'auth']);
    expect(nameTerms('better auth')).not.toContain('good');
    expect(nameTerms('big-data')).toEqual(terms('big data'));
  });

  it('so "I felt sick" names no skill, but a Felt the user capitalized does', () => {
    const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;
    expect(primary('I felt sick all day and skipped lunch')).toBeNull();
    expect(primary('make a map in Felt of our store locations')).toBe('felt-automation');
    expect(primary('is this a good name for a bakery')).toBeNull();
    expect(primary('set up better auth in my Next.js app')).toBe('better-auth');
  });
});

describe('a site the message names or links (round 31)', () => {
  let index: RoutingIndex;
  beforeAll(async () => {
    const dir = tempDir('skilldeck-sites-');
    writeTree(dir, {
      'google-home/SKILL.md': md(
        'google-home',
        'Control Google Home devices around your homes: lights, thermostats, speakers and routines.',
      ),
      'scrape-do/SKILL.md': md(
        'scrape-do',
        'Fetch web pages through the Scrape.do proxy API: rendered HTML, rotating proxies, anti-bot bypass.',
      ),
      'web-fetch/SKILL.md': md('web-fetch', 'Fetch a web page and return its text.'),
      'polygon-automation/SKILL.md': md(
        'polygon-automation',
        'Automate Polygon tasks via Rube MCP (Composio). Always search tools first for current schemas.',
      ),
      'stock-quotes/SKILL.md': md(
        'stock-quotes',
        'Stock prices for a ticker: open, high, low, close and volume, daily bars and quotes.',
      ),
    });
    index = indexOf(await catalogOf(dir));
  });
  const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;

  it('reads a link’s path as the site’s words, not the user’s', () => {
    expect(
      primary('Use Scrape.do to grab the rendered HTML of https://www.zillow.com/homes/Austin,-TX_rb/'),
    ).toBe('scrape-do');
    expect(primary('fetch https://www.zillow.com/homes/Austin,-TX_rb/ and list the prices')).not.toBe(
      'google-home',
    );
    expect(primary('turn off the lights in both homes')).toBe('google-home');
  });

  it('takes a product named by its site as the product, though its name is an English word', () => {
    const named = route(
      index,
      "pull yesterday's open, high, low and close for AAPL from our Polygon.io account",
      defaultConfig(),
      readyContext(),
    );
    expect(named.plan.primary).toBe('polygon-automation');
    // Named, it explains the request whatever else the request says (as Docmosis would).
    expect(named.candidates[0].factors.intent_match.value).toBeGreaterThan(0.9);
    expect(primary("pull yesterday's open, high, low and close for AAPL")).toBe('stock-quotes');
  });
});

describe('names typed as users type them (round 32)', () => {
  let index: RoutingIndex;
  beforeAll(async () => {
    const dir = tempDir('skilldeck-typed-names-');
    writeTree(dir, {
      'go-to-webinar-automation/SKILL.md': md(
        'go-to-webinar-automation',
        'Automate GoToWebinar tasks via Rube MCP (Composio): sessions, registrants, attendees.',
      ),
      'active-campaign-automation/SKILL.md': md(
        'active-campaign-automation',
        'Automate ActiveCampaign tasks via Rube MCP (Composio): contacts, lists, tags, automations.',
      ),
      'customerio-automation/SKILL.md': md(
        'customerio-automation',
        'Automate Customer.io tasks via Rube MCP (Composio): people, segments, campaigns.',
      ),
      'webinar-planner/SKILL.md': md(
        'webinar-planner',
        'Plans webinars: agenda, speakers, leads and follow-up lists.',
      ),
      'crm/SKILL.md': md('crm', 'A lightweight CRM for contacts, deals and notes kept in a local file.'),
      'hubspot/SKILL.md': md('hubspot', 'HubSpot contacts, companies and deals through the HubSpot API.'),
    });
    index = indexOf(await catalogOf(dir));
  });
  const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;

  it('reads a product typed as one word in small letters as the product', () => {
    const named = route(
      index,
      'add jenna to the Q3 webinar leads list in activecampaign and tag her warm',
      defaultConfig(),
      readyContext(),
    );
    expect(named.plan.primary).toBe('active-campaign-automation');
    // Named, it explains the request, as HubSpot typed with capitals would.
    expect(named.candidates[0].factors.intent_match.value).toBeGreaterThan(0.9);
    expect(primary('export the CRM contacts from hubspot')).toBe('hubspot');
  });

  it('meets a three-word name glued into one (GoToWebinar)', () => {
    expect(primary('register these people for our GoToWebinar session on Nov 14')).toBe(
      'go-to-webinar-automation',
    );
  });

  it('reads an e-mail address as nobody’s words (ana@kto.io is no “io”)', () => {
    expect(analyzeQuery('send the invite to ana@kto.io').map((g) => g.surface)).not.toContain('io');
    expect(primary('register ana@kto.io and raj@kto.io for our GoToWebinar session')).toBe(
      'go-to-webinar-automation',
    );
  });
});
