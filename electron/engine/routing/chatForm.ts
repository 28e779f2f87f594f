import { chatFormTable, SortedTable } from './lexdata';
import { hasCjk } from './text';

/**
 * A learned reading of a message's form: how likely it is chat (an opinion asked, a plan told,
 * a vent, trivia) rather than work for a skill, from its wording alone — the words most messages
 * share, how it opens and ends, the suffixes of the words it does not keep (a story's past
 * tenses), never which skill it names. messageKind.ts's rules name the forms they know, and
 * measured round by round (quality/corpus/README.md, rounds 21–28) they caught no new form of
 * chat; this model, trained without a round, reads most of that round's chat as chat.
 *
 * A logistic regression over binary features, trained by `trainChatForm` on the dev half of the
 * dev set and the unseen rounds, never the held-out half (quality/chatFormData.ts; `node
 * bench/fit-chat-form.mjs` regenerates data/chat-form.tsv).
 */
export interface ChatFormModel {
  /** The tokens kept as themselves; any other word is reduced to its shape. */
  vocabulary: string[];
  /** Feature → weight; a missing feature weighs 0. */
  weights: Record<string, number>;
}

/** A labelled message to learn from: `chat` when it should trigger no skill. */
export interface FormExample {
  text: string;
  chat: boolean;
}

/**
 * How sure the model must be before a message the rules read as a task is read as chat. Chosen
 * on the dev half and rounds 15–28 (each read by a model trained without it): 0.9 cost 2 dev
 * and 7 sampled requests for 4 sampled false triggers, 0.95 none and 3 for 2.
 */
export const CHAT_FORM_THRESHOLD = 0.95;

/** The fewest tokens (words and marks, or Chinese characters) a message needs for a reading. */
const MIN_TOKENS = 6;

/**
 * A question about now or a day to come ("what is the weather in Paris this weekend?", 明天伦敦会下雨吗)
 * asks about the world's state, which a skill looks up, however much it is worded like trivia;
 * not "if … tomorrow, what would …?", a hypothetical.
 */
const LIVE_QUESTION_RE =
  /^(?!\s*(?:what )?if\b).*\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening|weekend|week)|right now|currently|at the moment)\b[^.!?]*\?\s*$|(?:今天|今晚|明天|现在|目前|这周末|本周)[^。！？!?]*[？?吗]\s*$/iu;

const WORD_RE = /[a-z]+(?:'[a-z]+)?|\d+|[?!.,:;—-]|\p{Extended_Pictographic}/gu;

/** A message's tokens: lowercased English words and marks, or the characters of a Chinese one. */
function tokens(text: string): string[] {
  if (hasCjk(text)) return [...text.replace(/\s+/gu, '')].map((c) => (/[A-Za-z0-9]/u.test(c) ? 'L' : c));
  return text.toLowerCase().replace(/’/gu, "'").match(WORD_RE) ?? [];
}

/** What is left of a word the model does not keep: the suffix that says its form. */
function shape(token: string): string {
  if (/^\d+$/u.test(token)) return '#';
  const suffix = /(ed|ing|ly|s)$/u.exec(token);
  return suffix ? `X${suffix[1]}` : 'X';
}

/**
 * The features of a message: its tokens and token pairs, its first one and two and its last.
 * Not its length: the dev set's chat is shorter than its requests, and a length feature read
 * "reindex the products index in Algolia" as chat.
 */
export function formFeatures(text: string, vocabulary: { has(token: string): boolean }): string[] {
  return featuresOf(tokens(text), hasCjk(text), vocabulary);
}

function featuresOf(
  typed: readonly string[],
  cjk: boolean,
  vocabulary: { has(token: string): boolean },
): string[] {
  const prefix = cjk ? 'z:' : 'e:';
  const mapped = typed.map((t) => (vocabulary.has(t) ? t : shape(t)));
  const seq = mapped.filter((t, i) => !(t === 'X' && mapped[i - 1] === 'X'));
  const out = new Set<string>(['bias']);
  for (let i = 0; i < seq.length; i++) {
    out.add(`${prefix}u:${seq[i]}`);
    if (i + 1 < seq.length) out.add(`${prefix}b:${seq[i]}_${seq[i + 1]}`);
  }
  if (seq.length > 0) {
    out.add(`${prefix}first:${seq[0]}`);
    out.add(`${prefix}first2:${seq.slice(0, 2).join('_')}`);
    out.add(`${prefix}last:${seq[seq.length - 1]}`);
  }
  return [...out];
}

/**
 * A model ready to read: from a trained model's maps, or from the shipped table searched in place
 * (parsing its 27k lines into maps cost the first keystroke 50–150 ms; lexdata.ts SortedTable).
 */
export class ChatForm {
  private readonly vocabulary: { has(token: string): boolean };
  private readonly weight: (feature: string) => number;

  constructor(model: ChatFormModel | SortedTable) {
    if (model instanceof SortedTable) {
      this.vocabulary = { has: (token) => model.get(`v:${token}`) !== null };
      this.weight = (feature) => Number(model.get(feature)?.[0] ?? 0);
    } else {
      const weights = new Map(Object.entries(model.weights));
      this.vocabulary = new Set(model.vocabulary);
      this.weight = (feature) => weights.get(feature) ?? 0;
    }
  }

  /** The probability that the message is chat, not a request for a skill's work. */
  chatProbability(text: string): number {
    return this.probabilityOf(tokens(text), hasCjk(text));
  }

  private probabilityOf(typed: readonly string[], cjk: boolean): number {
    let z = 0;
    for (const f of featuresOf(typed, cjk, this.vocabulary)) z += this.weight(f);
    return 1 / (1 + Math.exp(-z));
  }

  /**
   * True when the model is sure enough that the message is chat (CHAT_FORM_THRESHOLD) and the
   * message has wording to read: a few words typed as keywords ("news headlines today") have no
   * form, and the model's reading of them is its bias.
   */
  readsAsChat(text: string): boolean {
    const typed = tokens(text);
    if (typed.length < MIN_TOKENS || LIVE_QUESTION_RE.test(text)) return false;
    return this.probabilityOf(typed, hasCjk(text)) >= CHAT_FORM_THRESHOLD;
  }
}

/** Training settings; the defaults are what data/chat-form.tsv was fitted with. */
export interface TrainOptions {
  vocabularySize: number;
  epochs: number;
  learningRate: number;
  l2: number;
}

export const TRAIN_DEFAULTS: TrainOptions = { vocabularySize: 800, epochs: 30, learningRate: 0.1, l2: 1e-3 };

/**
 * Fits the model: the vocabulary is the tokens the most messages use, and the weights a
 * class-balanced logistic regression by stochastic gradient descent in the examples' order, so
 * the same examples always give the same model.
 */
export function trainChatForm(
  examples: readonly FormExample[],
  options: Partial<TrainOptions> = {},
): ChatFormModel {
  const { vocabularySize, epochs, learningRate, l2 } = { ...TRAIN_DEFAULTS, ...options };
  const df = new Map<string, number>();
  for (const e of examples) for (const t of new Set(tokens(e.text))) df.set(t, (df.get(t) ?? 0) + 1);
  const vocabulary = [...df.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, vocabularySize)
    .map(([t]) => t)
    .sort();
  const vocab = new Set(vocabulary);
  const xs = examples.map((e) => formFeatures(e.text, vocab));
  const chats = examples.filter((e) => e.chat).length;
  const classWeight = [examples.length / (2 * (examples.length - chats)), examples.length / (2 * chats)];
  const w = new Map<string, number>();
  for (let epoch = 0; epoch < epochs; epoch++) {
    examples.forEach((e, i) => {
      let z = 0;
      for (const f of xs[i]) z += w.get(f) ?? 0;
      const y = e.chat ? 1 : 0;
      const gradient = (1 / (1 + Math.exp(-z)) - y) * classWeight[y];
      for (const f of xs[i]) {
        const v = w.get(f) ?? 0;
        w.set(f, v - learningRate * (gradient + l2 * v));
      }
    });
  }
  const weights: Record<string, number> = {};
  for (const [f, v] of [...w.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    if (Math.abs(v) >= 5e-4) weights[f] = Math.round(v * 1e3) / 1e3;
  return { vocabulary, weights };
}

/**
 * The model as data/chat-form.tsv holds it, one sorted table: `v:<token>` lines name the
 * vocabulary, the other keys are features with their weight (no token or feature holds a tab or a
 * newline, and none starts with "v:").
 */
export function modelToTsv(model: ChatFormModel, header: string): string {
  const rows = [
    ...model.vocabulary.map((t): [string, string] => [`v:${t}`, '1']),
    ...Object.entries(model.weights).map(([f, w]): [string, string] => [f, String(w)]),
  ].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `# ${header}\n${rows.map(([key, value]) => `${key}\t${value}`).join('\n')}\n`;
}

/** Reads modelToTsv's lines (comments already dropped); a line it cannot read is skipped. */
export function modelFromLines(lines: readonly string[]): ChatFormModel {
  const model: ChatFormModel = { vocabulary: [], weights: {} };
  for (const line of lines) {
    const [key, value] = line.split('\t');
    if (!key || value === undefined) continue;
    if (key.startsWith('v:')) model.vocabulary.push(key.slice(2));
    else if (value !== '' && Number.isFinite(Number(value))) model.weights[key] = Number(value);
  }
  return model;
}

let shipped: ChatForm | null | undefined;
/** The shipped model (data/chat-form.tsv), or null where the table is missing (rules alone). */
export function defaultChatForm(): ChatForm | null {
  if (shipped === undefined) {
    const table = chatFormTable();
    shipped = table.size > 0 ? new ChatForm(table) : null;
  }
  return shipped;
}
