import { respell } from './spelling';
import { verbForms } from './lexdata';
import { terms } from './text';

// What kind of message a query is, read from the shape of its words before any skill is scored:
// a question that asks to learn, news that something works, a request to write a creative piece
// (routing spec §6.1: rule recall reads "the intent classification result").

/** Questions by their first words (after any greeting: LEAD_IN_RE). */
const QUESTION_RE =
  /^\s*(?:how (?:do|can|should|would|does) (?:i|you|we|one)\b|how to\b|what (?:was|were|does|do)\b(?! (?:my|our)\b)|what(?: is|'s| are) (?:a|an|some|good|the (?:story|reason|idea|difference|meaning|point|best|history|origin|(?:fastest|easiest|quickest|simplest|cheapest|right) way))\b|(?:can you )?recommend\b|why\b|explain\b|tell me about\b|can you explain\b|who (?:is|was|were)\b(?! (?:my|our)\b)|who (?:invented|created|wrote|painted|founded|won|discovered)\b|who (?:actually |really |first |originally )?(?:came up with|invented|created|founded|coined|designed|discovered|started|launched|built)\b(?! (?:my|our|the (?:deploy|build|job|pipeline|server|run))\b)|if [^?？,]{3,60}, (?:would|could|will|do you think) (?!you\b|u\b)[^?？]*[?？]|(?:in )?(?:what|which) year\b|when (?:was|were|did)\b|is it (?:rude|normal|true|possible|ok|okay|safe|bad|good|worth)\b|(?:is|are|does|do) (?:a|an) (?:[\w'-]+ ){1,2}?(?:really|actually)\b|(?:is|are|was|were) (?:[\w'-]+ ){1,5}?(?:[a-z]{2,}er|more [a-z]+|less [a-z]+) than\b(?![^?]*\b(?:now|today|tonight|tomorrow|currently|this (?:week|weekend|morning|afternoon|evening|month|year))\b)|(?:give|share|offer) (?:me |us )?(?:(?:a few|a couple of|some|any|\w+) )?(?:good |quick |practical |general )?(?:tips|advice|pointers)\b|in your (?:opinion|view|experience)\b|how (?:does|do) (?!(?:i|you|we|one|my|our|your|this|these|that|those|it|the|a|an)\b)(?:[\w.'-]+ ){1,4}?(?:actually|really|even)\b|(?:is|are) (?:[\w.'-]+ ){1,2}or (?:[\w.'-]+ ){1,2}?(?:[a-z]{2,}er|more [a-z]+|less [a-z]+)\b|what(?:'s| is| are| was) your (?:favou?rite|opinion|take|view|thoughts?)\b|(?:do|would|did) you (?:like|prefer|enjoy|love|hate|think(?! (?:you|u) (?:could|can|might|would)\b)|believe|reckon|have (?:a )?favou?rite)\b|are you (?:a|an|human|real|conscious|alive|sentient)\b|do you ever\b|any (?:[\w'-]+ ){1,4}(?:you'd|you would|you) (?:recommend|suggest)\b|who (?:are|made|built|created) you\b)|^\s*(?:如何|怎么|怎样|什么是|为什么|请问|你(?:最)?喜欢|你是谁|你有(?:没有)?(?:最)?喜欢)/iu;
/**
 * The assistant's opinion asked about a named thing ("Honestly, is Notion overrated?", "Is Spring
 * Boot overkill for …, or am I overthinking it?"): no skill's task, even where it names one.
 */
const OPINION_RE =
  /^\s*(?:do|does) (?:[\w.'-]+ ){1,3}(?:(?:really|even|actually) )?matter\b|\bor is it (?:just|all) (?:a|an|hype)\b|\bor am i just (?:paying for|imagining|biased)\b|^\s*(?:(?:is|are) (?!(?:my|our|your|the|this|that|these|those|it|there|we|you|they)\b)[\w.'-]+(?: [\w.'-]+)? (?:(?:basically|really|actually|kind of|sort of|still|now|getting|becoming|so|that|too) )*(?:overrated|underrated|overhyped|hyped|overkill|a scam|a fad|legit|dead|dying|worth the hype|worth it|worth the money|(?:basically |essentially |really )?just (?:a|an|another|hype|bad|terrible|awful|overrated)\b|(?:basically|essentially) (?:a|an)\b|(?:basically|essentially|really) just\b|the same (?:thing )?as)\b)|\bor am i (?:overthinking|overanalyzing) (?:it|this)\b/iu;
/** A concrete thing to work on: a file name or path, a fenced block, a pasted multi-line text. */
const ARTIFACT_RE = /(?<![\w~./-])[\w~./-]+\.[a-z0-9]{2,5}\b|```|(?:^|\s)[~.]?\/[\w.-]+\/|\n/iu;
/** A question that wants company, not an answer ("Anyone else feel that way or just me?"). */
const RHETORICAL_RE =
  /^\s*is it just me,? or\b[^?？]*[?？]|\b(?:(?:does )?any ?one else (?:feel|think|notice|have|get|hate|love)[^?？]*|(?:or )?(?:is it )?just me|am i the only one[^?？]*)[?？]/iu;
/**
 * After a groan, "what" and "when" tell the story ("nobody ever knows what they're for"): only a
 * question mark, a request, an order or a problem make it a task.
 */
const venting = (task: string) =>
  !/[?？]|\b(?:please|can you|could you|would you|help|need|want)\b|请|帮|能不能|可以|给我|提醒/iu.test(
    task,
  ) &&
  !TROUBLE_RE.test(task) &&
  !IMPERATIVE_CLAUSE_RE.test(task) &&
  !LOG_RE.test(task);
/** A message that opens with a groan or a laugh ("ugh, my manager books …", "lol my cat …"). */
/** Said in so many words: nothing is asked ("just needed to vent", "not asking for anything"). */
const VENT_RE = /\bjust (?:needed|wanted|need|want) to vent\b|\bjust venting\b|\bnot asking for anything\b/iu;
const EMOTIVE_START_RE = /^\s*(?:ugh+|argh+|sigh|lol|lmao|haha+|omg|meh|welp|yay|woo+)\b/iu;
/** "Just curious", "purely out of curiosity": whatever it mentions, the message asks to learn. */
const CURIOUS_RE =
  /\bjust (?:curious|wondering|asking|thinking out loud)\b|\bout of (?:pure )?curiosity\b|好奇问(?:问|一下)|就是好奇|随便聊聊|随口一问|闲聊一下/iu;
/** The assistant's view asked in Chinese: 说说你的看法, 你怎么看, 你更推荐哪个, 哪个更值得…. */
const ZH_VIEW_RE =
  /你(?:觉得|认为)(?![^？?。]{0,6}(?:我的|我们的|我写|我做|我画|我拍|这个|这份|这篇|这段|这张|这几))[^？?。]{1,24}(?:吗|呢|怎么样)|说说你的看法|你(?:怎么|如何)看|你(?:更|会)?(?:推荐|选|喜欢)哪(?:个|一个)|哪个更(?:值得|好|适合|推荐)/u;
/** What an acronym stands for ("What is INP in Core Web Vitals?", "What's CORS?"): typed in capitals. */
const ACRONYM_RE =
  /^\s*[Ww]hat(?:'s|’s| is| are| does) (?:an? )?[A-Z]{2,6}s?\b(?! (?:trading|worth|doing|at|showing|saying)\b)/u;
/** The assistant's view asked anywhere ("Vercel or Netlify: which one do you personally think …?"). */
const ASKS_VIEW_RE =
  /\b(?:do|would) you (?:personally |honestly |really )?(?:think|prefer|reckon|believe|recommend|like|pick|choose|go with|find|consider)\b(?! (?:you|it'?s possible)\b)[^?？]*[?？]|\bjust (?:your|ur) (?:gut |honest )?(?:take|opinion|view|feeling)\b|\b(?:just )?(?:want|wanted|need|curious about) your (?:opinion|take|thoughts|view)\b|\b(?:curious|wondering) (?:what|how) you (?:think|feel|see it)\b/iu;
/** …unless about the user's own things ("do you think my PR is ready to merge?"). */
const PERSONAL_VIEW_RE = /\b(?:my|our|me|this|these)\b/iu;
/**
 * A product named like a domain (Last.fm, Node.js, Socket.io, fly.io): no file to work on. Capitalized
 * for .ai and .js (logo.ai and app.js are files), either way for the rest.
 */
const PRODUCT_DOMAIN_RE =
  /\b(?:[A-Z][A-Za-z]+\.(?:fm|io|ai|js|ly|me|tv|co)|[a-z]+\.(?:fm|io|ly|me|tv|co))\b(?!\/)/gu;
/**
 * A question about how the world is or was — history, causes, definitions, how things work,
 * opinions — rather than about the user's own things or the live state of something: "How did
 * YouTube get its name?", "What language is Kubernetes written in?", "股票和基金有什么区别".
 * Read only when PERSONAL_RE finds nothing (see isInformational).
 */
const KNOWLEDGE_RE =
  /^\s*(?:(?:how|what|when|where|why|who) (?:did|was|were)\b|who (?:designed|built|directed|composed|owns|made|started|launched|coined|is|are)\b|(?:what|which) (?:year|century|decade|language|country|city|planet|animal|bird|element)\b|how (?:do|does|did) (?!i\b|you\b|we\b|one\b)|how (?:long|far|big|tall|old|high|deep|fast|hot|cold|heavy|large|small) |(?:is|are|was|were) (?:it |there )?(?:\S+ ){0,4}(?:useful|good|bad|worth|safe|healthy|better|worse|true|real|possible|legal|rude|normal|dangerous|harmful)\b|(?:do|does) (?:you|anyone) (?:think|know|believe|feel)\b|can (?!you\b|i\b|we\b)\w+ (?:eat|drink|live|survive|see|hear|fly|swim)\b)|\b(?:history|origin|invention|inventor|meaning|definition|etymology|rules) of\b|\bdifference between\b|\bwhat year (?:did|was|were)\b|^\s*(?:was|were|is|did) (?:[\w.'-]+ ){1,3}(?:originally|first|always|once) |\bor is (?:that|it|this) (?:a|just a) myth\b|\bis it true that\b|(?:为什么|是谁|谁发明|谁创|哪一年|哪年|有什么区别|的区别|有什么不同|的不同之处|的原理|什么意思|啥意思|为啥|是怎么.{0,12}的|你觉得|你认为|的历史|的起源|的由来|^\s*听说|真的(?:能|会|有|是)[^？?]{0,12}吗|到底是[^？?，,]{1,16}还是|的创始人|是谁创(?:立|办|建)的|最早是?(?:在)?什么时候|最早(?:是|由)[^？?，,]{1,16}(?:做|提出|发明|开发|创立|推出)|什么时候(?:出现|发明|诞生|推出|问世)的|有(?:什么|哪些)(?:好的?|实用的?)?(?:建议|技巧|窍门|诀窍))|^\s*(?:推荐|(?:用.{1,16}?的(?:话|方式|语言|口吻|比喻)来?)?(?:解释|讲解|讲讲))/iu;
/**
 * The user's own things, or the live state of something: a knowledge-style question with one of
 * these ("how long until the next train", "what did I bench last week", "这个pod为什么一直重启")
 * asks for a lookup a skill does.
 */
const PERSONAL_RE =
  /\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|our|ours|(?<!\bthe )us|this|these(?! days)|here|now(?! that\b)|today|tonight|tomorrow|yesterday|currently|current|latest|next|live|real-?time)\b|我|咱|这个(?!技术|概念|词|说法|名字|品牌|理论|行业|领域)|这些|这篇|这段|这份|(?<!到)现在|今天|今晚|明天|昨天|最新|实时|目前/iu;

/** The user as the one an answer is for: 给我讲讲, 跟我说说, 告诉我. */
const TO_ME_RE = /(?:给|跟|和|对|向)我(?:讲讲?|解释(?:一下)?|说说?|聊聊?|介绍(?:一下)?)|告诉我/gu;

/**
 * A question followed by a request ("why is the payments pod crash-looping? check it with
 * kubectl", "洗完了没有？顺便把冰箱调到3度"): the question is the request's context, the message a task.
 */
const FOLLOWED_BY_REQUEST_RE =
  /[?？]\s*(?:(?:please|and|then|also|so)\s+)?(?:check|fix|run|use|show|list|find|get|fetch|pull|grab|dig|open|look|debug|restart|deploy|install|update|set|add|create|make|send|move|book|cancel|download|delete|remove|save|schedule|remind|approve|reject|assign|pause|export|archive|merge|close|post|log|mark|give|quiz|write|draft|translate|summari[sz]e|generate|convert)\b|[?？]\s*(?:请|帮我|给我|顺便|用(?!大白话|通俗|简单的?话|人话))/iu;

/** The words of five letters or more the question patterns read: a typo in one of them ("What's the differvnce…") must not turn a question into a task. */
const QUESTION_WORDS = [
  ...new Set(
    // "favou?rite" spells favourite and favorite: an optional letter is read both ways.
    [QUESTION_RE, KNOWLEDGE_RE, FOLLOWED_BY_REQUEST_RE].flatMap((re) =>
      [re.source.replace(/([a-z])\?/g, '$1'), re.source.replace(/[a-z]\?/g, '')].flatMap(
        (source) => source.match(/[a-z]{5,}/g) ?? [],
      ),
    ),
  ),
];

/**
 * Greetings and fillers before a question ("Hi! Can you explain…", "ok so how does…", "btw why…",
 * 你好，请问…, 对了，为什么…): the question patterns read the start of the message, so they go first.
 */
const LEAD_IN_RE =
  /^\s*(?:(?:hey|hi|hello|yo|ok|okay|so|well|oh|um+|uh+|hmm+|btw|by the way|(?:quick|random|dumb|silly|stupid|honest|serious|weird|odd|genuine|side) (?:question|thought)|hypothetically|also|and|but|anyway|honestly|personally|seriously|genuinely|lol|lmao|haha+|omg|ugh|wow|welp|man|dude)\b[\s,.!:;—–-]*|(?:你好|您好|嗨|哈喽|那个|嗯|哦|对了|顺便问一下|另外|还有)[\s，,。.！!：:]*)+/iu;
const withoutLeadIn = (text: string) => text.replace(LEAD_IN_RE, '');

/**
 * The user reporting that something now works ("I finally fixed the bug, it was a missing
 * semicolon", "it works now", 终于搞定了): news, not a request — unless a request follows
 * ("…, now write a test for it").
 */
const REPORT_RE =
  /^\s*(?:i (?:finally |just |already )?(?:fixed|solved|figured out|sorted out|got (?:[\w'-]+ ){1,3}?(?:working|to work))\b|(?:it|that|this|everything) (?:finally |now )?works?(?: now)?(?=\s*(?:$|[,.!，。！]|thanks?\b|thank you))|(?:我)?(?:终于|已经|刚刚?)?(?:搞定|解决|修好|弄好)了)/iu;
const REQUEST_AFTER_RE =
  /(?:^|[,，.。;；!！]\s*|\b(?:now|please|can you|could you|would you|help me|then)\s+)(?:check|fix|run|write|add|create|make|update|review|deploy|test|send|show|find|explain|help|commit|push|open)\b|[?？]|(?:请|帮我|给我|再|接下来)/iu;

/** "…but the signup one still fails": what follows the report is a problem, not news. */
const CONTRAST_RE = /\b(?:but|still|except|fails?|failing|error|broken|however)\b|但是|还是|可是|不过|报错/iu;

/** True for a report that something works now, with nothing asked or wrong after it (REPORT_RE). */
function isReport(instruction: string): boolean {
  const match = REPORT_RE.exec(instruction);
  if (match === null) return false;
  const after = instruction.slice(match[0].length);
  return !REQUEST_AFTER_RE.test(after) && !CONTRAST_RE.test(after);
}

/**
 * A remark, an opinion or a feeling, with nothing asked ("I think my code review went badly
 * today", "My grandma used to make the best spicy rabbit", "I love the weather in Lisbon",
 * 我家猫今天把花瓶打碎了, 我觉得这个方案不太好): chat, not a task. Statements that log something
 * ("I spent $40 on lunch", "I ran 5k") are how trackers are used, so only frames of opinion,
 * feeling and memory count; a question, a request word or a problem in it makes it a task.
 */
const REMARK_RE =
  /^\s*(?:(?:i|we) (?:really |honestly |just |kind of |still )?(?:think|feel|felt|guess|believe|wish|miss|missed|love|loved|hate|hated|used to)\b|(?:my|our) (?:[\w'-]+ ){1,3}?used to\b)|^\s*(?:我|我们)(?:真的|还是|总)?(?:觉得|感觉|认为|想念|好想|讨厌|喜欢)|^\s*我家(?!里?的?(?:网络|路由器|电脑|灯|空调|wifi))/iu;
const ASKS_RE =
  /[?？]|(?<!\b(?:'d|’d|would|will|could|might|to)\s)\b(?:please|can you|could you|would you|will you|help|need|want|let'?s|should|how|what|which|where|when|why|who|whether|remind|tell me|show me|find|check|fix|make|write|give|send|book|order|set up|add|create|look up|plan|track|log|save|note)\b|请|帮|能不能|可以|怎么|什么(?![都也])|吗|呢|要|想要|给我|提醒|查(?![了过])|记(?![了得过着住])/iu;
const TROUBLE_RE =
  /\b(?:error|fail(?:s|ed|ing)?|broken|crash(?:es|ed|ing)?|bug|won't(?! stop\b)|can't|cannot|doesn't work|not working|stuck|slow|(?<!\b(?:calm|wind|settle|sit|lie|write|jot|cool|quiet) )down|charged|lost(?! it\b)|wrong|missing|never (?:arrived|came)|didn't (?:arrive|come)|went (?:red|blank|dark|offline)|exit(?:ed)?(?: with)? code|exception|panic(?:ked)?|timed out|time ?out|rejected|refused|denied|bounced|declined|expired|blocked|banned|suspended|locked out|hacked|leak(?:ed|s)?|corrupt(?:ed)?|disappeared|vanished|overwritten|regress(?:ed|ion)|flaky|hung|froze|frozen|unresponsive|outage|spiked|dropped|oom|killed|\d{3} (?:error|status))\b|报错|失败|坏了|打不开|崩溃|出错|连不上|不能用|蓝屏|卡住|卡死|扣费/iu;

/**
 * A statement about what happened, with nothing asked: a subject, then a past tense or a perfect
 * ("The weather in Lisbon was gorgeous the whole trip", "Our flight to Seoul got delayed six
 * hours", "I've had the new album on repeat on Spotify all day", 我今天终于把驾照考下来了！,
 * 周末在杭州西湖边散步，天气真好). A skill's word in it (weather, Spotify) is its topic, not a task.
 */
const SUBJECT_RE =
  /^\s*(?:the|my|our|his|her|their|this|that|these|those|i|we|he|she|they|it|i've|we've|i'd|we'd|i'm|we're|it's|there)\s+((?:[\w'-]+\s+){0,6})([\w'-]+)/iu;
/** Verbs that give an order, at the start of a message or of a later clause ("…, now deploy it"). */
const ORDER_VERBS =
  'jot|hold|put|keep|note|remember|record|summari[sz]e|translate|convert|draw|play|turn|call|text|email|post|share|schedule|cancel|buy|sell|pay|grab|get|fetch|show|list|add|create|update|change|run|send|move|write|draft|open|close|start|stop|set|find|look|check|book|order|track|log|save|tell|give|make|remind|deploy|merge|push|commit|release|publish|test|build|review|analy[sz]e|compare|export|import|upload|download|print|sign|transcribe|generate|design|debug|restart|retry|rerun|clean|sort|organi[sz]e|rename|delete|remove|archive|back ?up|sync|invite|notify|ping|alert|reply|respond|forward|mark|tag|label|file|tweet|flip|switch';
const IMPERATIVE_CLAUSE_RE = new RegExp(
  `(?:[,;:.!—–]\\s*|\\s(?:and|so|then|but)\\s+)(?:(?:now|then|so|please|pls|just|also)\\s+)*(?:${ORDER_VERBS})\\b`,
  'iu',
);
const ZH_STATEMENT_RE =
  /^\s*(?:我|我们|我家|今天|昨天|周末|刚才|刚刚|最近|上周|这周|终于)[^？?]*(?:了|真好|太好了|好累|好开心|啊|呀|哈哈+)(?:[，,][^，,？?]{1,16}){0,3}[！!。~～\s]*$/u;

/** A plan told, not a task given ("Thinking I'll finally go for the Salesforce cert next year", "One day I'll …"). */
const PLAN_RE =
  /^\s*(?:(?:i'm |i am )?(?:thinking|planning|hoping) (?:i'll|of|on|about)\b|i'll (?:finally|probably|maybe|eventually|someday)\b|(?:i'm|i am|we're|we are) (?:going to|gonna|planning to|planning on|finally going to)\b|(?:i'm|i am|we're|we are) (?:probably|likely|seriously|finally) (?:ditching|switching|moving|leaving|dropping|quitting|considering)\b|(?:one day|someday) (?:i|we)(?:'ll| will)?\b|next (?:year|month|week|summer|spring|fall|winter),? (?:i|we)(?:'ll| will)\b)/iu;

/** Someone, then a time in the past ("I finally quit my job last week", "We moved to Lyon two years ago"). */
const PERSON_THEN_RE =
  /^\s*(?:i|we|he|she|they)\b.*\b(?:yesterday|last (?:night|week|weekend|month|year|summer|winter|spring|fall|time)|\w+ (?:days?|weeks?|months?|years?) ago)\b/iu;
/**
 * A named subject, then what it did ("Mastodon never really took off …", "Lightning struck the
 * big oak"): a capitalized first word, at most two adverbs, a past tense. Group 1 the subject.
 */
const NAMED_SUBJECT_RE =
  /^\s*([A-Z][\w.'-]*)\s+(?:(?:never|really|just|finally|also|already|actually|totally|basically|completely|always|once|suddenly|apparently|officially|quietly)\s+){0,2}([\w'-]+)/u;

/**
 * A log entry: an amount of money, distance, weight, food or time ("I spent $40 on lunch", "I
 * slept 6 hours", "ran 5 km"). That is how trackers are used: a task, not a remark.
 */
const LOG_RE =
  /[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:k|km|mi|miles?|kg|kgs|lbs?|kcal|cal|calories|hours?|hrs?|h|minutes?|mins?|steps|reps|sets|glasses|cups)\b|\b\d+(?:[.,]\d+)?\s?(?:dollars?|bucks|euros?|quid|yuan|usd|eur|gbp|rmb)\b|\d+(?:[.,]\d+)?\s?(?:元|块|公里|公斤|小时|分钟|步)|\blogged\b/iu;

/** Past tenses that are also a verb's present (rent a car, read this, set, feed, embed). */
const PRESENT_TOO_RE =
  /^(?:read|rent|beat|set|put|cut|let|hit|quit|shut|hurt|cost|spread|bet|fit|lit|split|burst|cast|bid|saw|lay|found|ground|wound|fell|bore|felt|bound|wed|shed|spit|rid|thrust|[a-z]*eed|embed|shred)$/iu;

function isPastVerb(word: string): boolean {
  const w = word.toLowerCase().replace(/^(?:i|we|you|they|he|she|it)'(?:ve|d|s)$/u, '');
  return (
    /^(?:was|were|had|been|got|quit|hit|hurt|shut|upset)$/.test(w) ||
    /^[a-z]{2,}ed$/.test(w) ||
    verbForms().has(w)
  );
}

/**
 * An opinion, a reaction or a habit in the present ("Obsidian feels so much snappier than
 * Evernote", "Discord is way better than Teams", "The cat sleeps on the Starlink dish", "Notion
 * 比飞书文档好用太多了", "今年高考语文作文题好难"): a verb of being or seeming after something that is
 * no order, or a Chinese exclamation.
 */
const FINITE_RE =
  /^(?:is|are|was|were|am|has|have|had|feels?|felt|looks?|looked|seems?|seemed|sounds?|sounded|became|becomes|turned|gets|got|keeps|kept|makes|made|sleeps|works|runs|goes|lives|loves|hates|likes|beats|wins|won)$/iu;
/** A message that opens with these asks or orders, whatever verb of being follows (isOpinion). */
const ORDER_START_RE = new RegExp(
  `^(?:please|pls|can|could|would|will|should|do|does|did|is|are|was|were|what|how|which|where|when|why|who|whose|whether|${ORDER_VERBS}|use|help|let|see|try|go|read|explain|plan|estimate|calculate|monitor|watch|search|scan|fix|edit|format|resize|crop|beat|sharpen|rewrite|improve|polish|shorten|expand|simplify|clarify|enhance|boost|optimi[sz]e|refactor|rephrase|proofread|correct)$`,
  'iu',
);
const ZH_OPINION_RE =
  /太.{1,6}了|好(?:难|累|看|用|棒|烦|美|贵|慢|快|开心|难过|喜欢|可爱|吃)|真(?:好|棒|美|难|烦|不错)|比.{1,12}(?:好用|难用|方便|麻烦|好|差|强|快|慢|贵|便宜)|(?:出来|完|好)[了啦](?:[，,].{0,8})?[!！~～。]*$|[，,\s](?:唉|哎|哈哈+|呜呜+)[!！~～。]*$/u;

/** A sentence that only judges ("… It's kind of adorable.", "That's hilarious!", "What a day."). */
const VERDICT_RE =
  /(?:^|[.!。！]\s+)(?:honestly,? )?(?:it's|it is|that's|that is|this is|what an?|so) (?:(?:kind of|sort of|really|so|pretty|just|such an?|quite|truly|totally|absolutely|one of the) )*(?:[\w'-]+ ){0,3}?(?:adorable|amazing|awesome|beautiful|brilliant|cool|crazy|cute|funny|great|hilarious|impressive|inspiring|insane|lovely|nice|sad|wild|wonderful|weird|day|week|ride)\b[^?？]*$/iu;

/** A Chinese clause that gives an order (切换到…, 帮我…, 把…): the message is a request. */
const ZH_ORDER_RE =
  /(?:^|[，,。；;])\s*(?:请|帮|把|给|查|用|写|做|生成|翻译|打开|关掉|设置|安排|提醒|发|订|找|搜|下载|上传|切换|换|改|删|加|建|创建|导出|导入|整理|总结|分析|计算|转|启动|停|部署|提交|合并|推送|检查|看看|看一下|记)/u;
/** Where a purpose or a condition begins: a verb after it is not the message's own ("… so it looks good"). */
const SUBORDINATE_RE = /^(?:so|that|which|because|when|if|until|while|before|after|where|who)$/iu;

function isOpinion(task: string): boolean {
  if (!asksNothing(task)) return false;
  if (VERDICT_RE.test(task)) return true;
  if (ZH_OPINION_RE.test(task)) return !ZH_ORDER_RE.test(task);
  const words = task
    .trim()
    .split(/[\s,;:]+/u)
    .slice(0, 9);
  if (words.length < 3 || ORDER_START_RE.test(words[0])) return false;
  for (const word of words.slice(1)) {
    if (SUBORDINATE_RE.test(word)) return false;
    if (FINITE_RE.test(word.replace(/[.!]+$/u, ''))) return true;
  }
  return false;
}

/** Someone else doing something for the user (有人给我, 同事帮我…了). */
const SOMEONE_FOR_ME_RE = /(?:人|他|她|他们|她们|朋友|同事|老板|老师|妈妈|爸爸|陌生人)(?:给|帮)我/gu;

/** A problem told as over ("… turned out to be a typo in the API URL. never again."). */
const RESOLVED_RE = /\bturned out (?:to be|it was|that)\b|\bnever again\b/iu;

/** Nothing asked, no open problem reported, nothing logged: what a remark, an opinion or a statement needs. */
function asksNothing(typed: string): boolean {
  // 陌生人给我…提了 PR: what someone did for the user, not a request.
  const task = typed.replace(SOMEONE_FOR_ME_RE, ' ');
  return (
    !ASKS_RE.test(task) &&
    (!TROUBLE_RE.test(task) || RESOLVED_RE.test(task)) &&
    !IMPERATIVE_CLAUSE_RE.test(task) &&
    !LOG_RE.test(task)
  );
}

function isStatement(task: string): boolean {
  if (!asksNothing(task)) return false;
  if (ZH_STATEMENT_RE.test(task)) return true;
  if (PERSON_THEN_RE.test(task) || PLAN_RE.test(task)) return true;
  // A diary line without its subject ("Played field hockey all through school …"): a past tense
  // that is no verb's present too (not rent, read, set; not feed or embed), showing no thing ("Got
  // this DM …: '…'").
  const [first = '', second = ''] = task.trim().split(/[\s,;:]+/u);
  if (
    !ORDER_START_RE.test(first) &&
    !PRESENT_TOO_RE.test(first) &&
    isPastVerb(first) &&
    !/^th(?:is|ese)$/iu.test(second)
  )
    return true;
  const named = NAMED_SUBJECT_RE.exec(task);
  if (named && !ORDER_START_RE.test(named[1]) && isPastVerb(named[2])) return true;
  const m = SUBJECT_RE.exec(task);
  if (!m) return false;
  const words = [...(m[1] ?? '').trim().split(/\s+/u).filter(Boolean), m[2]];
  return words.some(isPastVerb);
}

/** A question that only seeks agreement with what was said ("… Am I wrong?", "…, right?"). */
const TAG_QUESTION_RE =
  /(?<![\s,.!])[\s,.!]+(?:am i (?:wrong|crazy|alone in this)|right|agree|no|don't you think|or what)\?+\s*$/iu;

function isRemark(task: string): boolean {
  const said = task.replace(TAG_QUESTION_RE, '.');
  return (
    REMARK_RE.test(said) && !ASKS_RE.test(said.replace(/\bused to \w+/giu, '')) && !TROUBLE_RE.test(said)
  );
}

/**
 * Thanks, with nothing asked after them ("Thanks a lot, that recipe turned out great!",
 * 谢谢你帮我改的简历，我拿到面试了！): the 帮我 of a thank-you is what was done, not a request.
 */
const THANKS_RE =
  /^\s*(?:thanks|thank you|thx|many thanks|cheers|谢谢|多谢|感谢)[^,，.。!！]*[,，.。!！]*\s*/iu;

const THANKS_LAST_RE =
  /(?:^|[.!,;]\s*|\s)(?:thanks|thank you|thx|cheers|ty)\b(?: (?:so|very) much| a lot| a ton| again| heaps)?(?: for (?:the |your |all the |all your )?(?:help|time|advice|earlier|everything|that)(?: earlier| today| tonight)?)?(?:[\s.!]|🙏|❤️|😊)*$/iu;

function isThanks(task: string): boolean {
  // Thanks closing a report of what went well ("merge conflicts all sorted and the release went
  // out. thanks a ton for earlier 🙏"): what comes before must ask and report nothing wrong.
  const closing = THANKS_LAST_RE.exec(task);
  if (closing && closing.index > 0) return venting(task.slice(0, closing.index));
  const match = THANKS_RE.exec(task);
  if (!match) return false;
  // 昨天帮我换算的单位 "the units you converted for me yesterday": what was done, not a request.
  const rest = task.slice(match[0].length).replace(/帮我[^，。！？,.!?]{0,12}?的/gu, '');
  // What follows the thanks tells what happened ("… fired exactly when it should have"): only a
  // question, a request, an order or a problem make it a task ("…, now send the report to Dana").
  return venting(`. ${rest}`);
}

/**
 * Thanks and goodbyes inside a message ("… anyway thanks for the help earlier, that's all for
 * today!"): courtesy, not what the message asks ("help") or tells.
 */
const COURTESY_RE =
  /(?:\banyway,?\s+)?\b(?:thanks|thank you|thx)(?: (?:so|very) much| a lot)?(?: for (?:the|your|all the|all your) (?:help|time|advice)(?: earlier| today| tonight)?)?|\bthat'?s (?:all|it) for (?:today|now|tonight)\b|\b(?:talk (?:to you )?(?:later|soon|tomorrow)|good ?night|see (?:you|ya)(?: later| tomorrow)?)\b/giu;

/**
 * Why a message asks for no skill's work: what the plan's reason says (see chatKind). `chat` is
 * the learned form's reading (chatForm.ts) of a message no rule names.
 */
export type ChatKind = 'question' | 'report' | 'remark' | 'statement' | 'chat';

/**
 * What kind of chat a message is, or null for a task: a question that asks to learn rather than
 * to do, news that something works now (isReport), a remark or opinion (isRemark), a statement of
 * what happened (isStatement) — none asks for a skill (spec §6.1 rule recall reads "the intent
 * classification result"): "How do I password protect a PDF?" wants an answer, not pdf-to-text.
 * A question about a concrete file ("What does page 3 of a.pdf say?") is a task.
 */
export function chatKind(typedInstruction: string, typedTask: string): ChatKind | null {
  const typedRest = typedTask.slice(typedTask.indexOf(typedInstruction) + typedInstruction.length);
  const [instruction, task, rest] = [typedInstruction, typedTask, typedRest].map((s) =>
    withoutLeadIn(respell(s, QUESTION_WORDS)),
  );
  if (ARTIFACT_RE.test(task.replace(PRODUCT_DOMAIN_RE, ' ')) || FOLLOWED_BY_REQUEST_RE.test(task))
    return null;
  if (OPINION_RE.test(instruction)) return 'remark';
  if (QUESTION_RE.test(instruction) || QUESTION_RE.test(rest.replace(/^\s*[:：]\s*/u, ''))) return 'question';
  if (RHETORICAL_RE.test(task) && asksNothing(task.replace(new RegExp(RHETORICAL_RE.source, 'giu'), ' ')))
    return 'remark';
  if ((EMOTIVE_START_RE.test(typedTask) || VENT_RE.test(task)) && venting(task.replace(LOG_RE, ' ')))
    return 'remark';
  if (CURIOUS_RE.test(task) || (ZH_VIEW_RE.test(task) && !ZH_ORDER_RE.test(task))) return 'question';
  if (ACRONYM_RE.test(instruction) || (ASKS_VIEW_RE.test(task) && !PERSONAL_VIEW_RE.test(task)))
    return 'question';
  if (isReport(instruction)) return 'report';
  if (isRemark(task) || isThanks(task)) return 'remark';
  // Statements and opinions read contractions ("I've had …") with a typed apostrophe.
  const straight = task.replace(/’/gu, "'").replace(COURTESY_RE, ' ').trim() || task;
  if (isStatement(straight)) return 'statement';
  if (isOpinion(straight)) return 'remark';
  // "Explain it to me" (给我讲讲, 跟我说说, tell me) asks for an answer, not about the user's things.
  const told = task.replace(TO_ME_RE, ' ');
  return KNOWLEDGE_RE.test(instruction) && !PERSONAL_RE.test(told) ? 'question' : null;
}

/** True when the message is chat of some kind (chatKind), not a task for a skill. */
export const isInformational = (instruction: string, task: string): boolean =>
  chatKind(instruction, task) !== null;
/**
 * A request to write a piece of creative text ("write a poem about rain", "a toast for my best
 * friend's wedding", 讲个笑话): the piece is the task and the rest its topic, so a skill that does
 * not do such pieces (a weather skill, a wedding planner) hears only its topic. Group 1 is the kind.
 */
const CREATIVE_RE =
  /\b(?:write|compose|draft|pen|make up|give|tell|come up with|create)\s+(?:me\s+|us\s+)?(?:a|an|some|one|two|three|\d+)?\s*(?:[\w'-]+\s+){0,2}?(poems?|haikus?|limericks?|sonnets?|stor(?:y|ies)|tales?|fables?|songs?|lyrics|jingles?|jokes?|puns?|riddles?|toasts?|speech(?:es)?|eulog(?:y|ies)|essays?|raps?|verses?|odes?|ballads?|slogans?|taglines?|messages?|cards?|wish(?:es)?|greetings?)\b|(?:写|作|编|讲|说)[^，。！？,.!?]{0,24}?(诗歌|诗|笑话|故事|歌词|祝酒词|段子|对联|散文|童话|祝福语|贺卡|贺词)|\b(?:know|got|have) any (?:(?:good|funny|dad|more) )?(jokes?|puns?|riddles?)\b/iu;

/** The index term of the creative piece a request asks to write, or null (see CREATIVE_RE). */
export function creativeKind(instruction: string): string | null {
  const match = CREATIVE_RE.exec(instruction);
  if (!match) return null;
  const english = match[1] ?? match[3];
  return english ? (terms(english)[0] ?? null) : (match[2] ?? null);
}

/**
 * Words that ask for work, wherever they stand ("can you", "please", "I need", 帮我, 给我). Narrower
 * than ORDER_VERBS on purpose: built from it, "text", "call", "file" … let three more dev
 * negatives through as clear leaders.
 */
const REQUEST_RE =
  /\b(?:please|pls|can you|could you|would you|will you|help|need|want|let'?s|remind|tell me|show me|give me|get me|find|check|fix|make|write|send|book|order|set up|add|create|look up|track|log|save|note|pull|grab|list|turn|convert|generate|draft|summari[sz]e|translate|schedule|search|run|deploy|build|update|export|import|upload|download|post|share|move|delete|remove|rename|sort|compare|analy[sz]e|review|record|transcribe|read|play|open|start|stop|cancel|set|put|keep|draw|design|plan|estimate|calculate|monitor|watch)\b|请|帮|能不能|可以|给我|提醒|查|记|把|用|搜|找|看看|发/iu;

/**
 * True when the message asks for work in so many words: an order at its start, a clause that opens
 * on one after the news ("we're out of milk, jot it down"), or a request word anywhere. Not chat
 * that slipped past chatKind (a typo in "favourite", a new form of remark).
 */
export function asksForWork(task: string): boolean {
  const first = task.trim().split(/[\s,;:]+/u)[0] ?? '';
  return (
    (ORDER_START_RE.test(first) && !QUESTION_START_RE.test(first)) ||
    REQUEST_RE.test(task) ||
    IMPERATIVE_CLAUSE_RE.test(task)
  );
}

/** The first words of ORDER_START_RE that open a question, not an order. */
const QUESTION_START_RE =
  /^(?:do|does|did|is|are|was|were|what|how|which|where|when|why|who|whose|whether|should|beat)$/iu;
