/**
 * What a model's answer to the arbiter's question (issue 10 §5: "the exact skill name from the
 * list, or none") says, in every form real models give it: the bare name, in backticks, quotes
 * or bold, with an explanation before or after, its number in the list, JSON such as
 * `{"skill": "x"}`, "None" or "none of them", after a `<think>` block. When in doubt it is
 * `unclear` and the local route stands: a wrong skill is worse than none.
 */
export type ArbiterAnswer = { kind: 'skill'; name: string } | { kind: 'none' } | { kind: 'unclear' };

const UNCLEAR: ArbiterAnswer = { kind: 'unclear' };
const NONE: ArbiterAnswer = { kind: 'none' };

/** Words that say no skill, or that something is not the one (then a named skill is no choice). */
const NONE_WORDS = /^(?:none|no|null|nil|nothing|neither|n\/a)\b/;
const NEGATION = /\b(?:none|not|no|neither|nor|isn't|doesn't|don't|cannot|can't|nothing)\b/;

/** The answer without reasoning blocks and code fences; null when it never left its reasoning. */
function unwrap(text: string): string | null {
  const t = text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  if (/<(?:think|thinking|reasoning)>/i.test(t)) return null;
  return t.replace(/^```[\w-]*\s*$/gm, '').trim();
}

/** Markdown bold, backticks and quotes around words, gone (an apostrophe inside a word stays). */
const plain = (text: string) =>
  text
    .replace(/[*`"“”‘’]/g, '')
    .replace(/(^|[\s(])'|'(?=[\s).,;:!?]|$)/gm, '$1')
    .trim();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The listed names `text` mentions as whole names (a name inside a longer one does not count). */
function mentioned(text: string, names: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return names.filter((name) =>
    new RegExp(`(?<![\\p{L}\\p{N}_-])${escape(name.toLowerCase())}(?![\\p{L}\\p{N}_-])`, 'u').test(lower),
  );
}

/** A JSON object's choice: `{"skill": "x"}`, `{"name": null}`, `{"choice": 2}`… */
function fromJson(text: string, names: readonly string[]): ArbiterAnswer | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  const key = ['skill', 'name', 'choice', 'answer', 'selected', 'skill_name'];
  const found = entries.find(([k]) => key.includes(k.toLowerCase()));
  if (!found) return UNCLEAR;
  const [, choice] = found;
  if (choice === null) return NONE;
  if (typeof choice === 'number') return byNumber(String(choice), names) ?? UNCLEAR;
  if (typeof choice !== 'string') return UNCLEAR;
  return exact(choice, names) ?? (NONE_WORDS.test(choice.trim().toLowerCase()) ? NONE : UNCLEAR);
}

/** A listed name, whole and alone (any case, a list number or a trailing full stop aside). */
function exact(text: string, names: readonly string[]): ArbiterAnswer | null {
  const t = text
    .trim()
    .replace(/^\d+[.)]\s+/, '')
    .replace(/[.!:;,]+$/, '')
    .toLowerCase();
  const name = names.find((n) => n.toLowerCase() === t);
  return name ? { kind: 'skill', name } : null;
}

/** "2", "#2", "2." → the second listed name. */
function byNumber(text: string, names: readonly string[]): ArbiterAnswer | null {
  const m = /^#?(\d+)[.)]?$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= names.length ? { kind: 'skill', name: names[n - 1] } : null;
}

/**
 * The arbiter's reading of `text` for the candidates `names` (in the order they were listed).
 */
export function readArbiterAnswer(text: string, names: readonly string[]): ArbiterAnswer {
  const unwrapped = unwrap(text);
  if (!unwrapped) return UNCLEAR;
  const json = fromJson(unwrapped, names);
  if (json) return json;
  const cleaned = plain(unwrapped);
  const whole = exact(cleaned, names) ?? byNumber(cleaned, names);
  if (whole) return whole;
  const lines = cleaned
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const first = lines[0] ?? '';
  const all = mentioned(cleaned, names);
  const lower = cleaned.toLowerCase();
  if (all.length === 0) {
    // Only the answer's first line speaks: "None of these fit." / "none".
    return NONE_WORDS.test(first.toLowerCase()) ? NONE : UNCLEAR;
  }
  // The answer starts with the name ("sky-report - it covers…", "2. sky-report\n\nBecause…").
  const head = exact(first.split(/\s+[-–—:(]\s*|[,;]\s+|\s+because\b/i)[0], names);
  if (head?.kind === 'skill') return head;
  // Else one name, named without a negation anywhere ("The best fit is sky-report.").
  if (all.length === 1 && !NEGATION.test(lower)) return { kind: 'skill', name: all[0] };
  return UNCLEAR;
}
