import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { isInformational } from './messageKind';
import { splitInstruction } from './instruction';
import { catalogOf, defaultConfig, indexOf, readyContext } from './testHelpers';

const md = (name: string, description: string, frontmatter = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${frontmatter}---\n# ${name}\n\nDo the thing.\n`;
const informational = (query: string) => isInformational(splitInstruction(query).instruction, query);

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-informational-');
  writeTree(dir, {
    'weather/SKILL.md': md(
      'weather',
      'Current weather and forecasts for a city: rain, temperature and wind.',
    ),
    'youtube-stats/SKILL.md': md('youtube-stats', 'Subscriber counts and video stats for YouTube channels.'),
    'spring-boot-engineer/SKILL.md': md(
      'spring-boot-engineer',
      'Builds Spring Boot services: REST controllers, JPA and security.',
      'triggers:\n  - spring boot\n',
    ),
    'steam/SKILL.md': md(
      'steam',
      'Browse and launch a Steam library. Use when the user asks about their Steam games or achievements.',
    ),
    'stocks/SKILL.md': md('stocks', 'Real-time stock quotes. 股票实时行情。'),
    'json-tidy/SKILL.md': md(
      'json-tidy',
      'Pretty-prints and validates JSON documents.',
      'triggers:\n  - json\n  - format json\n',
    ),
  });
  index = indexOf(await catalogOf(dir));
});
const primary = (query: string) => route(index, query, defaultConfig(), readyContext()).plan.primary;

describe('knowledge questions ask to learn, not to run a skill (routing spec §6.1 intent classification)', () => {
  it('reads history, causes, definitions and how things work as informational, in English and Chinese', () => {
    for (const query of [
      'How did YouTube get its name?',
      'What language is Kubernetes written in?',
      'How do weather forecasters predict hurricanes?',
      'What did people use before toilet paper?',
      'Is LinkedIn useful for finding a job?',
      "What's the difference between weather and climate?",
      'What is the fastest way to learn Rust?',
      // A comparison of two things asks for a fact.
      'Is Daffy Duck older than Bugs Bunny?',
      'Are cats smarter than dogs?',
      'Was Rome more powerful than Carthage?',
      'Is a Bitcoin wallet really holding coins, or just the keys?',
      "What's the story behind the Pinterest name?",
      '天气预报是怎么做出来的',
      '股票和基金有什么区别',
      '微信是哪一年推出的',
      '推荐几部好看的科幻电影',
      // 用…的话 ("in words a five-year-old gets") before the verb: still "explain …".
      '用五岁小孩能听懂的话解释一下递归',
      '用简单的方式讲讲区块链',
    ])
      expect(informational(query), query).toBe(true);
  });

  it('keeps questions about the user’s own things or the live state of something as tasks', () => {
    for (const query of [
      "what's the weather in Paris this weekend",
      'how long until the next train from Park Street?',
      'Is Paris warmer than Rome this weekend?',
      'how many subscribers does my channel have?',
      'what did I bench last week?',
      // "what was / does + my, our" asks for the user's own data, whatever the tense.
      'what was my sleep score this morning?',
      'what does our calendar look like tomorrow?',
      '帮我用kubectl看看这个pod为什么一直重启',
      '茅台现在多少钱一股',
      '用通俗的话解释一下这个报错',
      'why does report.pdf fail to open?',
    ])
      expect(informational(query), query).toBe(false);
  });

  it('reads the question forms at the start of the message only, with whatever words between', () => {
    for (const query of [
      'Recommend a laptop for students',
      'Which year did we move to Berlin?',
      'Is coffee really healthy?',
      'Can dogs eat chocolate?',
      '如何备份数据库',
      'What is a TCP/IP/UDP stack?',
      'What was the first programming language?',
      // Which of two is nicer, how a thing works: asked whatever of the user's it mentions.
      'In your opinion, is Komodo or Portainer nicer for a small homelab?',
      'What is INP in Core Web Vitals and when did it replace FID?',
      "What's CORS?",
      'Vercel or Netlify: which one do you personally think has the nicer developer experience?',
      'Is Polymarket even legal for people in the US these days?',
      'TickTick or Todoist for a side project — which do you personally like better?',
      'Notion or Smartsheet for a 6-person team — which would you pick and why? just want your opinion',
      'Is it true that you should never charge a phone overnight?',
      'honestly, is Todoist or Things 3 better for GTD? curious what you think',
      'who started Hacker News and what year did it launch?',
      'Honestly, what’s the actual difference between git stash and git worktree? Just curious, not doing anything with it right now.',
      'TRX 和 ETH 哪个更值得长期持有？说说你的看法',
      'Notion 和 Obsidian 你更推荐哪个做个人笔记？说说你的看法就行',
      'Tailscale 和 ZeroTier 的原理有什么不同？',
      '今天加班到十点，好累，什么都不想干了。',
      'Is Docker or Podman faster on a Mac?',
      'How does ngrok actually get traffic to my laptop without me opening any ports?',
      // Is a named thing overrated, dead, just another …: an opinion asked ("now that" is no live state).
      'Honestly, is Notion overrated? Half my team swears by it and the other half lives in plain text files.',
      'Is SEO basically dead now that everyone asks chatbots instead of googling? hot takes welcome',
      'is Bluesky just another Twitter clone?',
      // 你觉得…吗 asks the assistant's view; 最早是什么时候 asks for history (这个技术 names the topic).
      '特斯拉的自动驾驶你觉得靠谱吗？我到现在还是不太敢用',
      'OCR 这个技术最早是什么时候出现的？',
      'WPS 最早是哪家公司做的？',
      'TDD 这个概念最早是 Kent Beck 提出来的吗？',
      'Shopify 的创始人以前是不是做滑雪板生意的？',
      // Who came up with a thing; a hypothetical about someone else.
      'Who actually came up with the Kanban board - was it Toyota, long before Trello made it popular?',
      'If Elon Musk ran a neighborhood bakery, would he still sleep on the factory floor? lol',
      // A lead-in that says the question is idle; "how do <several words> actually …".
      'Random question, why is it called a tachograph? My grandad drove lorries for thirty years.',
      "How do DEX aggregators like 0x actually find a better price than going to Uniswap directly? I'm not trading anything.",
      // 啥意思 / 为啥, 好奇问问, 随便聊聊; 给我讲讲 is the answer's listener, 用大白话 how to say it.
      '修仙小说里说的“金丹期”到底是啥意思？为啥人人都要结丹，好奇问问',
      'WhatsApp 和微信到底哪个在国外用的人更多？随便聊聊',
      '区块链为什么说数据改不了？用大白话给我讲讲原理就行',
      // Whether a thing was always so; 到底是 A 还是 B.
      'was PowerPoint originally a Microsoft product or did they buy it from someone?',
      'ADHD 到底是天生的还是后天形成的？',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      'summarize why the build broke',
      'summarize who was at the summit',
      '把推荐结果导出成表格',
      '整理一下如何部署的文档',
      'How do I clean up /var/log/ safely?',
      'How long is the realtime delay on the bus tracker?',
      'How does my portfolio look today?',
      'What is AAPL trading at?',
      'what is json',
      'Do you think you could deploy this to staging?',
      'Is our US store open on Sundays?',
      'Would you pick the cheapest flight to Oslo on Friday for me?',
      'who started the deploy that is running now?',
      '帮我比较一下 Notion 和 Obsidian 哪个更适合做个人笔记',
      '我这个月的账单里都有什么？',
      'how does the weather look in Oslo tomorrow',
      // A quoted question is material to work on.
      '"Who was Ada Lovelace" as a slide title, in bold',
      // The user's own things, the live state: a lookup.
      'is my site dead?',
      'is the staging server dead again?',
      '你觉得我这份简历写得怎么样？',
      '你觉得这个方案可行吗？帮我看看',
      '帮我查一下明天最早的航班',
      'If the build fails again, would you roll back the deploy?',
      // "who were our …" asks for the user's own data; a request after the question makes a task.
      'who were our top 10 affiliates by conversions in March?',
      'who were the top affiliates in March? also approve the pending commissions over $500',
      '为什么我的 Docker 容器一直重启？给我讲讲怎么查',
      '这个报错为什么会出现？用 kubectl 帮我看看',
    ])
      expect(informational(query), query).toBe(false);
  });

  it('reads a request for tips or advice as a question: it asks to learn, like "how do I …"', () => {
    for (const query of [
      'Give me three tips for a first job interview',
      'give me some advice on driving in heavy rain',
      'Share a few pointers for negotiating a salary',
      '第一次面试有什么技巧？',
      '雨天开车有哪些实用的建议',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      'give me the forecast for Berlin',
      'give me tips.csv as a chart',
      '我明天面试，有什么技巧',
      '英伟达现在能不能买？给我一个买入价和仓位建议',
    ])
      expect(informational(query), query).toBe(false);
    expect(primary('Give me three tips for driving in the rain and wind')).toBeNull();
  });

  it('reads a question followed by a request as a task (the question is its context)', () => {
    for (const query of [
      'why is the payments pod in CrashLoopBackOff? check it with kubectl',
      'Why is the build red? Please fix it',
      '为什么服务一直重启？请查一下日志',
      'What’s the difference between は and が? Give me a few example sentences and then quiz me on it.',
      'What does this regex match? Write three test strings for it.',
      'What were yesterday’s open and close for AAPL? Use our Polygon.io connection',
    ])
      expect(informational(query), query).toBe(false);
    for (const query of [
      'Why is the sky blue? Explain it simply.',
      'What is a monad? I keep hearing the word.',
    ])
      expect(informational(query), query).toBe(true);
  });

  it('reads a question with a typo in the word that makes it one as the same question', () => {
    for (const query of [
      "What's the differvnce between weather and climate?",
      'Tell me about the histroy of the umbrella',
      'Can you explian what a monad is?',
      'Recomend a laptop for students',
      // "favou?rite" in the pattern spells both; a typo in either is still the question.
      "What's your faourite kind of weather?",
      "What's your favorte kind of weather?",
    ])
      expect(informational(query), query).toBe(true);
    expect(primary("What's the differvnce between weather and climate?")).toBeNull();
    // Only words a dictionary does not know are respelled: "different" is a word, not a typo.
    expect(informational("what's the different weather in Paris this weekend")).toBe(false);
    expect(informational('why is the payments pod down? chekc it with kubectl')).toBe(false);
  });

  it('reads a question after a greeting or a filler as the same question', () => {
    for (const query of [
      'btw why is the sky blue?',
      'ok so how does a VPN work?',
      'Hi! Can you explain what a monad is?',
      'Hey, what is the fastest way to learn Rust?',
      '你好，请问如何备份数据库',
      '对了，微信是哪一年推出的',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      'Hey, check the weather in Paris',
      'ok so what did I bench last week?',
      '你好，帮我查一下明天的天气',
    ])
      expect(informational(query), query).toBe(false);
    expect(primary('hi! how do weather forecasters predict hurricanes?')).toBeNull();
  });

  it('reads news that something works now as no request, unless a request or a problem follows', () => {
    for (const query of [
      'I finally fixed the bug, it was a missing semicolon',
      'it works now, thanks!',
      'I just got the build working',
      'I solved it, the env var was wrong',
      '终于搞定了，原来是少了个分号',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      'I fixed the bug, now write a test for it',
      'I fixed the login bug but the signup one is still there, can you look?',
      'it works on my machine but fails in CI',
      '搞定了，帮我提交一下',
      'fix the bug',
    ])
      expect(informational(query), query).toBe(false);
  });

  it('reads a remark, an opinion or a feeling as no request, unless it asks or reports a problem', () => {
    for (const query of [
      'I think my code review went badly today',
      'My grandma used to make the best spicy rabbit',
      'I love the weather in Lisbon',
      'we really miss the old office',
      '我家猫今天把花瓶打碎了',
      '我觉得这个方案不太好',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      // Logging something is how trackers are used.
      'I spent $40 on lunch at Nando’s',
      'I ran 5k this morning in 27 minutes',
      // A request, a question or a problem in it.
      'I think we should deploy to staging first',
      'I love this song, add it to my running playlist',
      'I think the build is broken again',
      'I feel like my laptop is really slow today',
      'I think my card was charged twice',
      '我觉得这份简历还能改得更好，帮我看看',
      '我家的路由器又连不上了',
    ])
      expect(informational(query), query).toBe(false);
    expect(primary('I love the weather in Lisbon')).toBeNull();
    expect(primary('what is the weather in Lisbon')).toBe('weather');
  });

  it('reads a statement of what happened as no request, unless it logs something, asks or reports a problem', () => {
    for (const query of [
      'The weather in Lisbon was gorgeous the whole trip',
      'Our flight to Seoul got delayed six hours, we just slept at the gate',
      'My Tesla has been in the shop for two weeks',
      'I’ve had the new album on repeat all day',
      '我今天终于把驾照考下来了！',
      '周末在杭州西湖边散步，天气真好',
      // A named subject (capitalized, no order), then a past tense.
      'Mastodon never really took off the way people hoped it would',
      'Lightning struck the big oak in our garden last night',
      // Someone, then a time in the past; a past tense of a short verb.
      'I finally quit my job last week — no more logging PTO in Workday, feels amazing',
      'We moved to Lyon two years ago and never looked back',
      'My Whoop band died halfway through my marathon, so annoying lol',
      'lol my cat just walked across my keyboard and sent a half-written email to my boss',
      'My grandfather quit drinking in 1987 and never touched a drop again. Honestly one of the most inspiring things I know.',
      '昨天用滴答清单记了一整天的待办，感觉效率高多了',
      // A diary line without its subject; thanks and goodbyes around it are courtesy.
      "played field hockey all through school in Utrecht and I still miss it. anyway thanks for the help earlier, that's all for today!",
      'Spent the whole weekend repainting the fence, my arms are done',
      // A plan told ("things calm down" is no outage).
      "Thinking I'll finally go for the Salesforce admin cert sometime next year, once things calm down at work.",
      "One day I'll take the Trans-Siberian from Moscow to Beijing",
      // A problem told as over.
      'Spent my entire Saturday fighting a CORS error that turned out to be a typo in the API URL. never again.',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      // Log entries: how trackers are used.
      'I slept 6 hours last night',
      'we paid $1,200 for the Acme invoice yesterday',
      'I ate two eggs and a banana for breakfast, 350 kcal',
      'Paid 58 dollars for the electricity bill and 23.50 for takeout tonight',
      // A past tense that shows a thing, a base form ending in -ed, and thanks before a request.
      "Got this DM from a 'senior' account: 'only 3 spots left'. Is it trying to play me?",
      'Embed this video on the landing page',
      'rent a car at the airport for Friday',
      'read my unread mail and summarize it',
      'Thanks for the help earlier, now send the report to Dana',
      "I'm going to Lisbon tomorrow, will it rain?",
      "I'm planning to move our CI to GitHub Actions, can you draft the workflow?",
      'the site went down again after the deploy',
      // A request or a problem after the statement.
      'My Tesla has been in the shop for two weeks, check when the service appointment ends',
      'My PR was merged, now deploy it to staging',
      'The weather was awful yesterday, what about tomorrow?',
      'my package was delivered to the wrong address',
      'The deploy failed twice last night',
      'The deploy failed twice last night and the rollback is still stuck',
      'our CI went red after the merge',
      'the worker container exited with code 137 overnight',
      '昨天的报销单提交失败了',
      'Stripe charged me twice yesterday',
      'I need my sleep data from last week',
      'Notion changed its API last week, so update our sync script',
      // Not a statement at all.
      'weather in Lisbon tomorrow',
      'summarize the notes I recorded yesterday',
      'Slack messages I missed yesterday',
      'Deploy the app I built yesterday',
    ])
      expect(informational(query), query).toBe(false);
    expect(primary('The weather in Lisbon was gorgeous the whole trip')).toBeNull();
    expect(primary('weather in Lisbon tomorrow')).toBe('weather');
    // The plan says why the weather skill stood aside.
    const reason = (query: string) =>
      route(index, query, defaultConfig(), readyContext()).plan.routing_reason;
    expect(reason('The weather in Lisbon was gorgeous the whole trip')).toMatch(
      /^The message tells what happened/,
    );
    expect(reason('How do weather forecasters predict hurricanes?')).toMatch(/^The message asks to learn/);
    expect(reason('I love the weather in Lisbon')).toMatch(/^The message is a remark/);
    expect(reason('weather in Lisbon tomorrow')).not.toMatch(/The message/);
    // A declared trigger phrase in a story is its topic too ("format json" is json-tidy's).
    expect(primary('I spent all of yesterday trying to format json by hand, never again')).toBeNull();
    expect(primary('format json from this API response')).toBe('json-tidy');
  });

  it('reads an opinion or a reaction in the present as a remark, unless it orders, asks or reports a problem', () => {
    for (const query of [
      'Obsidian feels so much snappier than Evernote ever did',
      'Discord is way better than Teams for chatting with friends',
      'Honestly Canva has made me lazy about learning real design tools',
      'The cat sleeps on the Starlink dish every afternoon',
      'Notion 比飞书文档好用太多了',
      '今年高考语文作文题好难',
      'A股今天又是一片绿，唉',
      '终于写完周报了，下班！',
      'Thanks a lot, that recipe turned out great!',
      '谢谢你帮我改的简历，我拿到面试了！',
      '谢谢你,昨天帮我换算的单位我已经用上了',
      'thanks, the fly.io deploy finally went through on the first try!',
      'thanks!! that grafana alert fired exactly when it should have last night, saved my weekend',
      'Honestly Substack’s editor feels so clunky compared to Ghost. Anyone else feel that way or just me?',
      'Is it just me or is jq basically a write-only language? I can never read my own filters a week later.',
      // A question that only seeks agreement.
      "Honestly I think New Relic's pricing is a rip-off compared to Grafana Cloud. Am I wrong?",
      // Whether a thing matters; "just needed to vent"; "lost it" is a laugh, not a loss; 陌生人给我… is what happened.
      "honestly do Kaggle medals matter at all when you're hiring data scientists, or is it just a vanity thing?",
      'ugh, we went live on Product Hunt yesterday and got buried under some AI wrapper with 2k upvotes. whatever. just needed to vent',
      'lol my Tesla played the fart sound at a red light today because my 6yo found the toybox menu. the guy in the next lane lost it',
      '今天第一次有陌生人给我在 GitHub 上的项目提了 PR，好激动啊哈哈',
      // A switch planned and judged ("IT won't stop pushing" is no fault), a product just bad, 听说…真的能…吗,
      // a complaint that has lasted "until now" (到现在), a day told in several clauses.
      "we're probably ditching Google Calendar for Outlook next quarter because IT won't stop pushing for it. feels like a downgrade tbh",
      "honestly is jira just bad software or is it my company's config that makes it so painful",
      '听说 Picnic 在德国用电动小车送菜，这种模式真的能赚钱吗？',
      '谷歌日历为什么到现在都不支持农历生日提醒啊，真的服了',
      '今天终于把 n8n 的工作流全迁完了，累死，晚上吃顿火锅犒劳一下自己',
      // Thanks closing a report of what went well; whether a thing is worth it; who started a thing.
      'merge conflicts all sorted and the release went out. thanks a ton for earlier 🙏',
      'honestly is Sonos worth it over a cheap bluetooth speaker or am I just paying for the logo',
      "Who actually started Hacker News, and why does the site still look like it's from 2007?",
      // An idle lead-in after a dash, a hypothetical thought out loud, the assistant asked about itself,
      // its gut take asked.
      'Random thought — why is Kubernetes shortened to k8s? And who came up with that?',
      'hypothetically, if our agency moved from Harvest to Everhour, do you think people would log their hours more honestly? just thinking out loud',
      'do you ever get sick of people asking you to write README files? 😄',
      'Redis vs Memcached — which one do you personally find more elegant? Not asking for benchmarks, just your gut take.',
      'ugh, my manager books hour-long meetings with no agenda every single week and nobody ever knows what they’re for',
      'I really wish React Native’s web support was as good as Flutter’s, it’d save us a whole codebase',
      'Do you think remote work is here to stay?',
      // A product named like a domain is no file to work on.
      'I really wish Last.fm still had its old radio feature.',
      'My grandma still writes every invoice by hand in a little green ledger. It’s kind of adorable.',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      'sharpen this blurry screenshot so it looks good in the slide deck',
      'rewrite this tweet so it gets more reach',
      '切换到另一个Codex账号，这个的额度用完了',
      'the Notion page for Q3 is missing the owner column',
      'our Discord bot is down again',
      'Discord is better than Slack, so move our team chat over',
      'Thanks! Now can you turn that recipe into a shopping list?',
      'thanks, and when the alert fires again, ping me on Slack',
      '谢谢，再帮我把简历翻译成英文',
      // A file is something to work on.
      'I really wish utils.js still exported the old helper',
      'It’s kind of slow, so profile the build',
      'ugh, can you move my 3pm meeting to tomorrow',
      'Anyone else feel the build got slower? fix the webpack config',
      'Is it just me or is the staging deploy broken? check it',
      'I think the New Relic alert is misconfigured, can you fix it? Am I wrong?',
      'just needed to vent, but can you move my 3pm meeting to Friday?',
      'lol I lost my car keys again, where did I last check in?',
      '帮我给同事发个消息',
      "we're probably moving to Outlook, export my Google Calendar events to an .ics file",
      'the backup job won’t start since the upgrade',
      '谷歌日历现在为什么同步不了？',
      '今天把 n8n 的工作流迁完了，帮我检查一下有没有报错',
      'the release went out but the changelog is wrong. thanks',
      'who started the deploy that is running now?',
      'is the Pro plan worth it for our team? compare our usage with its limits',
      'I wish the report saved itself, save it as report.pdf now',
      '记一下：明天早上九点开会',
    ])
      expect(informational(query), query).toBe(false);
    expect(
      route(index, 'Weather apps are so much prettier these days', defaultConfig(), readyContext()).plan
        .routing_reason,
    ).toMatch(/^The message is a remark, an opinion or a feeling/);
  });

  it('reads a question about the assistant itself as chat, not a task', () => {
    for (const query of [
      "What's your favourite programming language and why?",
      'Do you like jazz?',
      'Are you a real person?',
      'Who made you?',
      '你最喜欢哪种编程语言',
      '你是谁',
    ])
      expect(informational(query), query).toBe(true);
    for (const query of [
      'what is your status page showing right now?',
      'do you have my calendar for tomorrow?',
    ])
      expect(informational(query), query).toBe(false);
  });

  it('routes the lookup and not the knowledge question', () => {
    expect(primary('How did YouTube get its name?')).toBeNull();
    expect(primary('how many subscribers does my YouTube channel have right now?')).toBe('youtube-stats');
    expect(primary('天气预报是怎么做出来的')).toBeNull();
    expect(primary('明天伦敦会下雨吗')).toBe('weather');
  });
});

describe('a lone keyword trigger in a question is a topic, not a request (routing spec §6.1)', () => {
  const candidate = (query: string) =>
    route(index, query, defaultConfig(), readyContext()).candidates.find((c) => c.name === 'json-tidy')!;

  it('does not fire a one-word trigger for a knowledge question, but does for a request', () => {
    expect(primary('What does JSON stand for?')).toBeNull();
    expect(candidate('What does JSON stand for?').factors.trigger_match.value).toBeLessThan(0.9);
    expect(candidate('tidy this json please').factors.trigger_match.value).toBe(0.9);
  });

  it('reads a one-word name in a knowledge question as its topic too (issue 10: implicit triggers)', () => {
    const weather = (query: string) =>
      route(index, query, defaultConfig(), readyContext()).candidates.find((c) => c.name === 'weather')!;
    expect(weather('How do weather forecasters predict hurricanes?').factors.trigger_match.value).toBe(0.6);
    expect(weather('what is the weather in Paris this weekend?').factors.trigger_match.value).toBe(0.75);
  });

  it('counts a phrase from a "Use when" clause in a question only where it is said as one', () => {
    const steam = (query: string) =>
      route(index, query, defaultConfig(), readyContext()).candidates.find((c) => c.name === 'steam');
    // "Steam games" said together is the skill's handle, a question or not …
    expect(steam('how do I back up my Steam games?')!.factors.trigger_match.value).toBe(0.75);
    // … its words scattered over a question about the world are its topic.
    const deck = 'Why did the Steam Deck take off when so many handheld gaming PCs before it flopped?';
    expect(steam(deck)?.factors.trigger_match.value ?? 0.6).toBe(0.6);
    expect(primary(deck)).toBeNull();
  });

  it('reads the assistant’s opinion asked about a named thing as a remark, a phrase trigger and all', () => {
    const query =
      'Is Spring Boot overkill for a tiny side project with three endpoints, or am I overthinking it?';
    expect(route(index, query, defaultConfig(), readyContext()).plan.routing_reason).toMatch(
      /^The message is a remark/,
    );
    expect(primary(query)).toBeNull();
    expect(primary('scaffold a Spring Boot service with a REST controller for orders')).toBe(
      'spring-boot-engineer',
    );
  });

  it('keeps a phrase trigger at full weight even in a question', () => {
    expect(candidate('how do I format json with this skill?').factors.trigger_match.value).toBe(0.9);
  });
});
