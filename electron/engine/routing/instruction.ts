// What a message asks, apart from the material it hands over (routing looks at the request).
import { isStopWord } from './text';
import { segment } from './zh';

/**
 * A request to make a new skill, up to the word "skill": what follows ("… that formats
 * changelogs", "…，用来整理发票") or comes between (写一个整理发票的技能) describes the skill to be
 * written, not a task for an installed one — the request is for a skill-authoring skill. Groups:
 * what comes before the verb, and after it up to "skill".
 */
const NEW_SKILL_RE =
  /^(.{0,60}?\b)(?:write|create|make|build|author|scaffold|draft|generate|develop|design)((?:\s+(?:me|us))?\s+(?:a|an|new|another|my own|our own)\b[^.?!:\n]{0,30}?\bskill)\b/i;
/** Something the user has, made into a skill: "package our deploy CLI as a skill", "turn this script into a skill". */
const NEW_SKILL_FROM_RE =
  /^(.{0,60}?\b)(?:package|turn|wrap|convert|make)\s+[^.?!:\n]{1,60}?\s+(?:as|into)\s+(?:a|an)\s+(?:new\s+)?(?:[\w-]+\s+)?skill\b/i;
const NEW_SKILL_ZH_RE =
  /^(.{0,20}?)(?:写|创建|做|开发|生成|编写|设计)(一?个)(?:新的?)?(?:.{1,40}?的)?\s*(skill|技能)/iu;

/**
 * Splits "instruction: payload" (routing looks at what is asked, not at the text to work on):
 * "Translate this into Chinese: Click Save…", "记一下：周五前提交报销单". Fenced code is payload too.
 * A request for a new skill keeps only the request ("write a new skill"): what the skill is to
 * do is neither instruction nor payload.
 */
export function splitInstruction(query: string): {
  instruction: string;
  payload: string;
  /** The user's words a new-skill request's rewording stands for ("make", "写一个技能"). */
  reworded?: string;
} {
  const unfenced = query.replace(/```[\s\S]*?(?:```|$)/g, ' ');
  // The request in the words skill-authoring skills use for it ("create a new skill"):
  // write, make, build, author… a skill all mean that one thing here.
  const en = NEW_SKILL_RE.exec(unfenced.trim());
  const said = (m: RegExpExecArray, tail = '') => m[0].slice(m[1].length, m[0].length - tail.length).trim();
  if (en) return { instruction: `${en[1]}create${en[2]}`, payload: '', reworded: said(en, en[2]) };
  const from = NEW_SKILL_FROM_RE.exec(unfenced.trim());
  if (from) return { instruction: `${from[1]}create a new skill`, payload: '', reworded: said(from) };
  const zh = NEW_SKILL_ZH_RE.exec(unfenced.trim());
  // CC-CEDICT glosses 创建 "found; establish", 写 "write": the request is said the way skills say it.
  if (zh) return { instruction: `${zh[1]} create a new skill`, payload: '', reworded: said(zh) };
  // A colon followed by a space or a new line, or a full-width colon; not "https://", not "9:30".
  const match = /^([^:：\n]{1,80})(?:：|:(?=\s))\s*(\S[\s\S]*)$/u.exec(unfenced.trim());
  if (match && match[1].trim().split(/\s+/).length <= 10) {
    const { material, request } = closingRequest(match[2]);
    return unquoted(request ? `${match[1]}. ${request}` : match[1], material);
  }
  return unquoted(unfenced, '');
}

/** A sentence that asks for work in its first words ("run it through …", "then look for …", "帮我…"). */
const REQUEST_OPENING_RE =
  /^(?:(?:then|and|also|now|so)\s+)?(?:(?:please|pls|can you|could you|would you)\s+)?(?:run|check|tell|send|post|add|create|make|find|look|pull|book|draft|log|put|use|open|search|get|give|show|email|share|schedule|set|update|save|export|upload|file|flag|mark|reply)\b|^(?:然后|再|并且?|请|帮我|麻烦)/iu;

/**
 * After "…: material.", the message's last sentence may be the request again ("order #58213 looks
 * sketchy: billing in Ohio, IP in Vietnam. run it through FraudLabs Pro"): it joins the instruction,
 * the sentences before it stay material.
 */
function closingRequest(payload: string): { material: string; request: string | null } {
  const sentences = payload
    .trim()
    .split(/(?<=[.!?。！？])\s*/u)
    .filter(Boolean);
  const last = sentences.at(-1) ?? '';
  if (sentences.length < 2 || !REQUEST_OPENING_RE.test(last)) return { material: payload, request: null };
  return { material: sentences.slice(0, -1).join(' '), request: last };
}

/**
 * Quoted words are the user's material, not the request: a template's name ('event-banner-v2'),
 * a title ("Who was Ada Lovelace" as a slide title), a phrase to translate or to search for.
 * They join the payload. A quote opens after a space or a bracket and closes before a non-letter:
 * an apostrophe in don't or Accounting's opens none, and a Chinese sentence's “工作” glued to its
 * words stays in it (放到“工作”清单下 says where the task goes).
 */
const QUOTED_RE =
  /(?<![\p{L}\p{N}])(?:'([^'\n]{2,80}?)'|"([^"\n]{2,80}?)"|“([^”\n]{2,80}?)”|‘([^’\n]{2,80}?)’)(?![\p{L}\p{N}])/gu;

function unquoted(instruction: string, payload: string): { instruction: string; payload: string } {
  const quoted: string[] = [];
  const rest = instruction.replace(QUOTED_RE, (_span, ...groups: (string | undefined)[]) => {
    quoted.push(groups.slice(0, 4).find((g) => g !== undefined) ?? '');
    return ' ';
  });
  // A message that is all quote ("'hello' in French") keeps its words: they are all it says.
  if (quoted.length === 0 || !/[\p{L}\p{N}]/u.test(rest)) return { instruction, payload };
  return { instruction: rest, payload: [...quoted, payload].filter(Boolean).join('\n') };
}

/** 写一首…的广告歌, 生成一张频谱图: the noun after the measure word and its 的-modifiers. */
const DELIVERABLE_ZH_RE =
  /(?:写|做|生成|画|制作|创建|设计|出|拟|起草|整理成|做成|转成|弄)一?(?:个|首|张|份|篇|套|幅|段|封|条|页|款)(?:[^，。！？,.!?：:]*?的)?([^，。！？,.!?：:的]{1,8})/u;
const DELIVERABLE_RE =
  /^(?:(?:please|can you|could you|help me|i need you to|i want you to)\s+)?(?:make|create|write|draft|build|generate|prepare|produce|design|compose|give me|get me|put together|whip up)\s+(?:(?:me|us)\s+)?an?\s+([a-z][a-z-]*)(?:\s+([a-z][a-z-]*))?/u;

/**
 * The words after "make a", "write an", "give me a" that open a request (folded text): what it asks
 * to be made — "make a plan for migrating our tests" asks for a plan, and a skill that writes
 * plans serves it better than one that knows the test runners it is about. Two words, for an
 * adjective before the noun ("a catchy tune"); a stop word is no deliverable. In Chinese, the
 * words of what 写/做/生成/画 … 一个/一首/一张 asks for, after its 的-modifiers (画一个用户注册的流程图: 流程图).
 */
export function deliverableWords(folded: string): Set<string> {
  const match = DELIVERABLE_RE.exec(folded.trim());
  const out = new Set([match?.[1], match?.[2]].filter((w): w is string => !!w && !isStopWord(w)));
  const zh = DELIVERABLE_ZH_RE.exec(folded);
  if (zh) for (const word of segment(zh[1])) out.add(word);
  return out;
}
