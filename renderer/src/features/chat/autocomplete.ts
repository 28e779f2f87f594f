import type { SkillSummary, SkillType } from '../../../../shared/contract';

/** A `$name` or `/name` being typed at the caret (DESIGN §3: how a message forces a skill). */
export interface CompletionToken {
  trigger: '$' | '/';
  /** What follows the trigger so far. */
  partial: string;
  /** Where the trigger starts and the name ends, in the text. */
  start: number;
  end: number;
}

export interface SkillOption {
  name: string;
  description: string;
  type: SkillType;
}

/** The most options the list holds; it scrolls past the first few. */
export const MAX_OPTIONS = 50;

// The same shape `forcedNames` (routing/format.ts) and the router recognise: a word start, then a name.
const TOKEN = /(?:^|\s)([$/])([a-z0-9-]*)$/i;
const NAME_CHARS = /^[a-z0-9-]*/i;

/** The token the caret is in, or null when the caret is not inside a `$…` / `/…` word. */
export function tokenAt(text: string, caret: number): CompletionToken | null {
  const match = TOKEN.exec(text.slice(0, caret));
  if (!match) return null;
  const partial = match[2];
  const rest = NAME_CHARS.exec(text.slice(caret))?.[0] ?? '';
  return {
    trigger: match[1] as '$' | '/',
    partial,
    start: caret - partial.length - 1,
    end: caret + rest.length,
  };
}

/**
 * Skills a message can force: routable (no errors, this OS, not shadowed) and enabled. Skills
 * that only `$name` may invoke are offered too: naming them is exactly what forcing is for.
 */
export function completionOptions(skills: readonly SkillSummary[]): SkillOption[] {
  const seen = new Set<string>();
  const options: SkillOption[] = [];
  for (const s of skills) {
    if (!s.routable || s.shadowedBy || s.enabled === false || seen.has(s.name)) continue;
    seen.add(s.name);
    options.push({ name: s.name, description: s.description, type: s.type });
  }
  return options.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A name as one typed word: a display name's blanks become hyphens ("Braintree Automation" →
 * `$Braintree-Automation`), which the router reads as that skill, case and all.
 */
export const typedName = (name: string): string => name.trim().replace(/\s+/g, '-');

/** Names that start with the partial first, then names that contain it (as typed words). */
export function matchOptions(options: readonly SkillOption[], partial: string): SkillOption[] {
  const q = partial.toLowerCase();
  const key = (o: SkillOption) => typedName(o.name).toLowerCase();
  const starts = options.filter((o) => key(o).startsWith(q));
  const contains = q ? options.filter((o) => !key(o).startsWith(q) && key(o).includes(q)) : [];
  return [...starts, ...contains].slice(0, MAX_OPTIONS);
}

/** The text with the token replaced by the chosen name and one space, and where the caret goes. */
export function applyCompletion(
  text: string,
  token: CompletionToken,
  name: string,
): { text: string; caret: number } {
  const after = text.slice(token.end);
  const inserted = `${token.trigger}${typedName(name)}${after.startsWith(' ') ? '' : ' '}`;
  return {
    text: text.slice(0, token.start) + inserted + after,
    caret: token.start + inserted.length + (after.startsWith(' ') ? 1 : 0),
  };
}
