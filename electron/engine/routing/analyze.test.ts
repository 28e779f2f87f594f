import { describe, expect, it } from 'vitest';
import { analyzeQuery } from './analyze';
import { siteNames } from './typedNames';
import { translate } from './zh';

const variantsOf = (query: string, word: string) =>
  analyzeQuery(query).find((g) => g.text === word)?.variants ?? [];

describe('Chinese bridging (issue 10 §3, round 3)', () => {
  it('reads CC-CEDICT glosses with accents folded (résumé is resume, not "r sum")', () => {
    expect(translate('简历')).toContain('resume');
    expect(translate('咖啡馆')).toContain('cafe');
  });

  it('brings the WordNet synonyms of a word’s first two glosses, weighed as synonyms', () => {
    // 图片 "picture; photograph": a skill that says "image" is meant.
    const image = variantsOf('生成一张图片', '图片').find((v) => v.term === 'imag');
    expect(image).toMatchObject({ via: 'synonym', shown: 'image' });
    expect(image!.weight).toBeLessThanOrEqual(0.6);
    // A lone character's glosses scatter over its senses: no synonyms of them.
    expect(variantsOf('图', '图').some((v) => v.via === 'synonym')).toBe(false);
  });

  it('reads CC-CEDICT by sense, so the first two senses are meanings, not the first two words', () => {
    // 地铁 "underground railway; subway; subway train": "subway" is the second sense (it was the
    // third word), so its WordNet synonym "metro" reaches a Seoul Metro skill.
    expect(translate('地铁')).toEqual(['underground railway', 'subway', 'train']);
    expect(variantsOf('地铁几点到', '地铁').find((v) => v.term === 'metro')).toMatchObject({
      via: 'synonym',
      shown: 'metro',
    });
    // A sense of several words is a collocation: 总结 "to sum up" is summarize, as a translation…
    expect(variantsOf('总结一下', '总结').find((v) => v.term === 'summariz')).toMatchObject({
      via: 'translation',
      shown: 'summarize',
    });
    // … and its words' own senses are not brought in ("up" → upward, astir).
    expect(variantsOf('总结一下', '总结').map((v) => v.shown)).not.toContain('upward');
    // A late sense brings no synonyms: 地铁's third, "train", is not "educate".
    expect(variantsOf('地铁几点到', '地铁').some((v) => v.shown === 'educate')).toBe(false);
  });

  it('keeps a word’s later senses when its first ones are long (升级 is also "upgrade")', () => {
    // "to go up by one grade; to be promoted; to escalate; (computing) to upgrade": five keywords
    // in the first three senses left the fourth, the one a software request means, out.
    expect(translate('升级')).toContain('upgrade');
    expect(variantsOf('优化一下升级弹窗', '升级').some((v) => v.term === 'upgrad')).toBe(true);
  });

  it('reads an aside in parentheses as no sense of the word, even with a comma inside it', () => {
    // 链 "cable (unit of length: 100 fathoms, about 185 m)": the comma cut the aside open, and
    // "fathoms" met a meeting-notes skill named Fathom (星链…断一次, a Starlink outage, went there).
    expect(translate('链')).toEqual(['chain', 'cable', 'enchain']);
    // 初创 "startup (company, phase etc)" is a startup.
    expect(translate('初创')[0]).toBe('startup');
  });

  it('reads a character’s common senses before the names it abbreviates (加 is "add" before "Canada")', () => {
    // CC-CEDICT lists 加 Jia1 "Canada (abbr.)" before 加 jia1 "to add", by spelling.
    expect(translate('加')[0]).toBe('add');
    expect(translate('德')[0]).toBe('virtue');
    // The country names keep their own words.
    expect(translate('加拿大')).toContain('canada');
    expect(translate('德国')).toContain('germany');
  });

  it('weighs a Latin word in a Chinese message above a glossed one: it is typed on purpose', () => {
    const weightOf = (query: string, word: string) =>
      analyzeQuery(query).find((g) => g.text === word)?.weight;
    expect(weightOf('帮我查一下 Jira 里 PAY 项目所有还没关的 bug', 'jira')).toBeGreaterThan(1);
    expect(weightOf('帮我查一下 Jira 里 PAY 项目所有还没关的 bug', '项目')).toBe(1);
    expect(weightOf('list the open bugs in Jira', 'jira')).toBe(1);
  });

  it('leaves out a later sense in a science’s own words (一次 "once" is not "linear")', () => {
    // "first; first time; once; (math.) linear (of degree one)": the math sense bridged a meal
    // eaten once (吃一次冷吃兔) to a skill named Linear.
    expect(translate('一次')).toEqual(['first', 'time', 'once']);
    expect(translate('二次')).not.toContain('quadratic');
    // A specialist sense that is the word's first stays: it is what the word means.
    expect(translate('偏微分')[0]).toBe('partial differential');
    // Computing senses are what software requests mean (升级, above; 内核 "kernel").
    expect(translate('内核')).toContain('kernel');
  });

  it('drops resultative complements and aspect particles (整理成, 拆成)', () => {
    expect(analyzeQuery('把笔记整理成表格').map((g) => g.text)).not.toContain('成');
    expect(analyzeQuery('拆成几个任务').map((g) => g.text)).not.toContain('成');
  });

  it('reads a verb doubled to soften it (聊聊天, 散散步) as the verb once', () => {
    const texts = (query: string) => analyzeQuery(query).map((g) => g.text);
    expect(texts('陪我聊聊天吧')).toEqual(texts('陪我聊天吧'));
    expect(texts('晚饭后散散步')).toEqual(texts('晚饭后散步'));
    // A lone character before a word it does not start stays a word of its own.
    expect(texts('把笔记发到群里')).toContain('发');
  });
});

describe('traditional characters (zh-TW, zh-HK)', () => {
  it('folds them to simplified, so a traditional request segments and bridges like a simplified one', () => {
    const traditional = analyzeQuery('幫我查一下明天倫敦會不會下雨');
    const simplified = analyzeQuery('帮我查一下明天伦敦会不会下雨');
    expect(traditional.map((g) => g.text)).toEqual(simplified.map((g) => g.text));
    expect(variantsOf('倫敦天氣', '天气')).toEqual(variantsOf('伦敦天气', '天气'));
    expect(variantsOf('倫敦天氣', '天气').length).toBeGreaterThan(1);
  });
});

describe('expansions that echo the query', () => {
  it('count an expansion that is another word of the query as that word, once', () => {
    const termsOf = (query: string, word: string) => variantsOf(query, word).map((v) => v.term);
    // "human" is near "body" (word embeddings): alone it still reaches it.
    expect(termsOf('human', 'human')).toContain('body');
    // Beside the word itself, a skill that says "root" or "body" answers one word, not two.
    expect(termsOf("What's the square root of 144?", 'squar')).not.toContain('root');
    expect(termsOf('How many bones are in the human body?', 'human')).not.toContain('body');
    expect(termsOf("What's the square root of 144?", 'root')).toContain('root');
  });
});

describe('request words (data/generic.txt)', () => {
  it('match only as themselves: their WordNet senses and neighbours are not what the user asked for', () => {
    const expanded = (query: string, word: string) =>
      variantsOf(query, word)
        .filter((v) => v.via !== 'exact')
        .map((v) => v.term);
    // "step through" is no "finished" (WordNet: through, adj. "having finished"), "next" no "close".
    expect(expanded('step through this failing test', 'through')).toEqual([]);
    expect(expanded('the next train to Boston', 'next')).toEqual([]);
    expect(expanded('keep my notes', 'keep')).toEqual([]);
    // A collocation it starts still speaks for it ("pull request" → PR).
    expect(expanded('review this pull request', 'pull')).toContain('pr');
    // A content word still brings its synonyms.
    expect(expanded('step through this failing test', 'test').length).toBeGreaterThan(0);
  });
});

describe('sites and web addresses', () => {
  it('reads a pasted address as its site’s name: the path is the site’s words, not the user’s', () => {
    expect(siteNames('grab https://www.zillow.com/homes/Austin,-TX_rb/ for me')).toMatch(
      /^grab +zillow +for me$/u,
    );
    expect(siteNames('watch https://status.myshop.io every 5 minutes')).toContain(' status myshop ');
    expect(siteNames('open www.rome2rio.com, type Lisbon')).toContain(' rome2rio ,');
    expect(analyzeQuery('grab https://www.zillow.com/homes/Austin for me').map((g) => g.text)).not.toContain(
      'home',
    );
    // No scheme, no www: a site typed as a name stays as typed.
    expect(siteNames('upload it to our Files.com folder')).toBe('upload it to our Files.com folder');
    expect(siteNames('logos of stripe.com and notion.so')).toBe('logos of stripe.com and notion.so');
    // A bare host with a subdomain or a path is an address all the same (its .io is nobody's word).
    expect(siteNames('ping api.shopfront.io from Tokyo')).toMatch(/^ping +api shopfront +from Tokyo$/u);
    expect(siteNames('summarize example.com/blog/why-we-moved-to-rust')).toMatch(/^summarize +example +$/u);
    expect(siteNames('diff config.prod.json and report.final.pdf')).toBe(
      'diff config.prod.json and report.final.pdf',
    );
  });

  it('takes a word typed as a site (Files.com, scrape.do) as a name, not as the English word', () => {
    const group = (q: string, w: string) => analyzeQuery(q).find((g) => g.surface === w);
    expect(group('use Scrape.do to fetch it', 'scrape')).toMatchObject({ cased: true, site: true });
    expect(group('move the board to Monday.com', 'monday')).toMatchObject({ cased: true, site: true });
    expect(group('block tiktok.com on the kids profile', 'tiktok')?.site).toBeUndefined();
    expect(group('scrape the page and save it', 'scrape')?.site).toBeUndefined();
    // A file's extension is no site, nor is a longer word that starts like one.
    expect(group('run build.sh again', 'build')?.site).toBeUndefined();
    expect(group('the polygon.community forum', 'polygon')?.site).toBeUndefined();
  });
});
