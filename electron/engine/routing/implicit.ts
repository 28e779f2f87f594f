import type { SkillMetadata } from '../../../shared/contract';

/**
 * Implicit triggers (issue 10 §2): the phrases a skill that declares no `triggers` still says
 * it is for — its name, the items of its description's "Use when …" clauses, `when_to_use`,
 * quoted example requests, and its body's "When to use" bullets. They count below declared
 * triggers (trigger_match 0.75 against 0.9), and the score panel names where each came from.
 */
export type ImplicitOrigin = 'name' | 'description' | 'when_to_use' | 'body';

export interface ImplicitTrigger {
  phrase: string;
  origin: ImplicitOrigin;
}

/**
 * Name parts that say how a skill is built or that it helps, not what it is for: weather-lookup
 * is named by "weather", swift-expert by "swift", github-client by "github".
 */
const GENERIC_NAME_PARTS = new Set(
  (
    'skill skills cli mcp api automation tool tools helper pro ai agent agents gen generator bot v1 v2 v3 v4 v5 ' +
    'lite official sdk py js ts lookup finder checker viewer assistant manager utility utils util kit toolkit ' +
    'toolbox service client app plugin integration connector wrapper bridge server expert master hub studio suite'
  ).split(' '),
);

/** Generic parts that say only how a skill is packaged: never a name on their own. */
const PACKAGING_PARTS = new Set(
  'skill skills automation mcp cli plugin integration connector wrapper official'.split(' '),
);

/** "Use when …", "Trigger on …", "用于…": where a description says when to pick it. */
const CLAUSE_RE =
  /\b(?:use (?:this skill |this |it )?(?:when(?:ever)?|for|if|to)|use cases?:|trigger(?:s|ed)? (?:on|when|for)|invoke (?:for|when)|activate (?:when|on)|applies when|perfect for|ideal for|helps? (?:with|you))\b:?\s*([^.!?\n]*(?:[.!?](?=\S)[^.!?\n]*)*)|(?:当|在)([^。！？\n]{2,80}?)时使用|(?:用于|适用于|适合)([^。！？\n]{2,80})/giu;

/** Lead-ins that precede the actual task inside a clause item. */
const LEAD_IN_RE =
  /^(?:the )?(?:(?:user|users|someone|you|they)\b)?\s*(?:explicitly )?(?:(?:asks?|asked|wants?|needs?|requests?|says?|mentions?)\b)?\s*(?:(?:to|for|about|you to)\b)?\s*(?:an? |the )?/i;

const QUOTED_RE = /["“”']([^"“”'\n]{3,60})["“”']/g;

/** Splits a clause into its items: "(1) a, (2) b", "a, b, or c", "a; b", "a/b" lists, 、. */
function items(clause: string): string[] {
  return clause
    .split(/\(\d+\)|[,;，；、]|\bor\b|\band\b(?= \w+ing\b)|\s\/\s/u)
    .map((item) =>
      item
        .replace(/^["“”'\s]+|["“”'\s]+$/g, '')
        .replace(LEAD_IN_RE, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((item) => item.length >= 3 && item.split(' ').length <= 7);
}

/** Implicit triggers of a skill, name first. `hints` are the body lines the catalog kept. */
export function implicitTriggers(metadata: SkillMetadata, hints: readonly string[] = []): ImplicitTrigger[] {
  const out: ImplicitTrigger[] = [];
  const seen = new Set<string>();
  const push = (phrase: string, origin: ImplicitOrigin) => {
    const key = phrase.toLowerCase();
    if (phrase.length < 2 || seen.has(key)) return;
    seen.add(key);
    out.push({ phrase, origin });
  };
  for (const name of [metadata.name, metadata.displayName ?? '']) {
    const words = name.split(/[-_\s.:]+/).filter((part) => part && !/^\d+$/.test(part));
    let parts = words.filter((part) => !GENERIC_NAME_PARTS.has(part.toLowerCase()));
    // A name of generic parts only is still a name: kit-automation is Kit's, hub-automation Hub's.
    if (parts.length === 0) parts = words.filter((part) => !PACKAGING_PARTS.has(part.toLowerCase()));
    if (parts.length > 0 && parts.length <= 4) push(parts.join(' '), 'name');
    // "DigitalOcean" names digital-ocean as fully as "digital ocean" does, and "AgentMail"
    // agent-mail-automation, though "agent" alone is a generic part of names.
    if (parts.length === 2 || parts.length === 3) push(parts.join(''), 'name');
    for (let i = 0; i + 1 < words.length; i++)
      if (words.slice(i, i + 2).some((part) => GENERIC_NAME_PARTS.has(part.toLowerCase())))
        push(words[i] + words[i + 1], 'name');
  }
  const fromText = (text: string | undefined, origin: ImplicitOrigin) => {
    if (!text) return;
    for (const match of text.matchAll(CLAUSE_RE)) {
      for (const item of items(match[1] ?? match[2] ?? match[3] ?? '')) push(item, origin);
    }
    for (const match of text.matchAll(QUOTED_RE)) push(match[1].trim(), origin);
  };
  fromText(metadata.description, 'description');
  fromText(metadata.shortDescription, 'description');
  if (metadata.whenToUse) {
    for (const item of items(metadata.whenToUse)) push(item, 'when_to_use');
    fromText(metadata.whenToUse, 'when_to_use');
  }
  for (const hint of hints) for (const item of items(hint)) push(item, 'body');
  return out;
}
