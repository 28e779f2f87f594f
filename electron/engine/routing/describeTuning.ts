import crypto from 'node:crypto';
import fs from 'node:fs';
import { generateText } from 'ai';
import { isMap, parseDocument } from 'yaml';
import type { DescriptionCandidate, DescriptionTuning } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { EngineError } from '../errors';
import { tokenCount } from '../llm/tokenCount';
import { type IndexedSkill, RoutingIndex } from './lexicon';
import type { RoutingModel } from './model';
import type { RouterConfig } from './router';
import { readTriggerEvals, runTriggerEvals } from './evals';

/** The share of each answer's cases held out of the model's sight (skill-creator's run_loop.py: 0.4). */
const HOLDOUT = 0.4;
/** A description's hard limit (agentskills.io): 1–1024 characters. */
const MAX_DESCRIPTION = 1024;
const MODEL_TIMEOUT_MS = 60_000;
const BODY_EXCERPT = 2000;

type Cases = NonNullable<ReturnType<typeof readTriggerEvals>>['cases'];

/** SKILL.md's SHA-256, as tuning read it: applying writes only over that version. */
export const skillMdHash = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const hashOf = skillMdHash;

/**
 * A stratified train/test split that is the same on every run (by each query's hash): 40 % of the
 * cases that should trigger and 40 % of those that should not are held out, so a description is
 * chosen on the rest and judged on queries the model never saw — as skill-creator does.
 */
export function splitCases(cases: Cases): { train: Cases; test: Cases } {
  const train: Cases = [];
  const test: Cases = [];
  for (const answer of [true, false]) {
    const side = cases
      .filter((c) => c.should_trigger === answer)
      .sort((a, b) => hashOf(a.query).localeCompare(hashOf(b.query)));
    const held = side.length >= 2 ? Math.round(side.length * HOLDOUT) : 0;
    test.push(...side.slice(0, held));
    train.push(...side.slice(held));
  }
  return { train, test };
}

/** The catalog as the router sees it, with one skill's description replaced. */
function indexWith(skills: IndexedSkill[], id: string, description: string): RoutingIndex {
  return new RoutingIndex(
    skills.map((s) =>
      s.summary.id === id
        ? { ...s, summary: { ...s.summary, description }, metadata: { ...s.metadata, description } }
        : s,
    ),
  );
}

/** How one description does on the train and test cases. */
function judge(
  skills: IndexedSkill[],
  id: string,
  description: string,
  split: { train: Cases; test: Cases },
  config: RouterConfig,
  round: number,
): Judged {
  const index = indexWith(skills, id, description);
  const run = (cases: Cases) => runTriggerEvals(index, id, { file: '', cases }, config).cases;
  const train = run(split.train);
  const test = run(split.test);
  return {
    round,
    description,
    train: { passed: train.filter((c) => c.pass).length, total: train.length },
    test: { passed: test.filter((c) => c.pass).length, total: test.length },
    failing: [...train, ...test].filter((c) => !c.pass).map((c) => c.query),
    // What the router did with each train case that fails: what the model needs to hear.
    [WENT]: new Map(
      train.filter((c) => !c.pass).map((c) => [c.query, { primary: c.primary, status: c.status }]),
    ),
  };
}

/** Where the router sent the train cases a description fails (kept out of the contract's shape). */
const WENT = Symbol('went');
type Judged = DescriptionCandidate & { [WENT]?: Map<string, { primary: string | null; status: string }> };

/** The model's answer as a description: no reasoning, fences, label or quotes; no angle brackets; ≤ 1024. */
export function readDescription(answer: string): string | null {
  let text = answer.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  text = text.replace(/^```[\w-]*\n?|\n?```$/g, '').trim();
  text = text.replace(/^(?:new |improved )?description\s*:\s*/i, '').trim();
  if (/^(["'“])[\s\S]*(["'”])$/.test(text)) text = text.slice(1, -1).trim();
  text = text
    .replace(/<\/?[a-z][^<>]*>/gi, '')
    .replace(/[<>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > MAX_DESCRIPTION ? text.slice(0, MAX_DESCRIPTION).replace(/\s+\S*$/, '') : text;
}

const SYSTEM = `You write the description field of an agent skill's SKILL.md. A router reads only the skill's name and description to decide whether a user's message should use the skill, so the description must say what the skill does and when to use it, in the words users actually type, and say what it is not for when near-misses trigger it. Plain text, third person, at most ${MAX_DESCRIPTION} characters, no angle brackets, no markdown. Reply with the new description only.`;

function prompt(o: {
  name: string;
  body: string;
  current: Judged;
  tried: DescriptionCandidate[];
  train: Cases;
}): string {
  const went = o.current[WENT];
  const fails = (c: Cases[number]) => {
    const where = went?.get(c.query);
    if (!where) return '';
    if (!c.should_trigger) return ' — FAILS now (this skill was chosen)';
    return ` — FAILS now (${where.primary ? `went to ${where.primary}` : `this skill: ${where.status.replace(/_/g, ' ')}`})`;
  };
  const lines = o.train.map(
    (c) => `- ${c.should_trigger ? 'should use it' : 'should NOT use it'}: "${c.query}"${fails(c)}`,
  );
  const tried = o.tried.map((t) => `- (${t.train.passed}/${t.train.total}) ${t.description}`);
  return [
    `Skill: ${o.name}`,
    `Current description (${o.current.train.passed}/${o.current.train.total} of these cases right):\n${o.current.description}`,
    `Cases:\n${lines.join('\n')}`,
    ...(tried.length > 0
      ? [`Descriptions already tried, with their score on these cases:\n${tried.join('\n')}`]
      : []),
    `What the skill's instructions say (start of SKILL.md's body):\n${o.body.slice(0, BODY_EXCERPT)}`,
  ].join('\n\n');
}

export interface TuningInput {
  skills: IndexedSkill[];
  id: string;
  config: RouterConfig;
  models: RoutingModel | undefined;
  rounds: number;
}

/**
 * Description tuning (agentskills.io "Optimizing descriptions"; skill-creator's run_loop.py):
 * the skill's trigger evals are split into train and test; each round the model sees the train
 * cases (which fail now) and the descriptions tried, and writes a new one; each is judged by this
 * router on both halves. The best on train that beats the current one there is proposed; the test
 * half says whether it generalizes. Nothing is written here (`writeDescription` does that).
 */
export async function improveDescription(o: TuningInput): Promise<DescriptionTuning> {
  const skill = o.skills.find((s) => s.summary.id === o.id);
  if (!skill) throw new EngineError('not_found', `No skill with id "${o.id.slice(0, 200)}".`);
  let evals;
  try {
    evals = readTriggerEvals(o.id);
  } catch (error) {
    throw new EngineError('invalid_params', (error as Error).message);
  }
  const cases = evals?.cases ?? [];
  const positives = cases.filter((c) => c.should_trigger).length;
  if (cases.length < 4 || positives < 2 || positives === cases.length)
    throw new EngineError(
      'invalid_params',
      `${skill.metadata.name} needs at least 4 trigger-eval cases, 2 or more that should trigger it and 1 or more that should not (it has ${positives} and ${cases.length - positives}); add them in its Evals tab or with skilldeck eval --should-trigger / --should-not-trigger.`,
    );
  const resolved = o.models ? await o.models.resolve({ timeoutMs: MODEL_TIMEOUT_MS }) : null;
  if (!resolved?.ok)
    throw new EngineError(
      'unavailable',
      `Tuning a description needs a model: ${resolved && !resolved.ok ? resolved.reason : 'none is configured'} (Settings → Model; from a terminal: SKILLDECK_MODEL with OPENAI_BASE_URL and OPENAI_API_KEY).`,
    );
  const skillMd = fs.readFileSync(skill.summary.file, 'utf8');
  const split = splitCases(cases);
  const baseline = judge(o.skills, o.id, skill.metadata.description, split, o.config, 0);
  const candidates: Judged[] = [];
  const notes: string[] = [];
  let tokensIn = 0;
  let tokensOut = 0;
  let best = baseline;
  for (let round = 1; round <= o.rounds && best.train.passed < best.train.total; round++) {
    let text: string;
    try {
      const answer = await generateText({
        model: resolved.model,
        abortSignal: AbortSignal.timeout(MODEL_TIMEOUT_MS),
        system: SYSTEM,
        prompt: prompt({
          name: skill.metadata.name,
          body: skill.text ?? '',
          current: best,
          tried: [baseline, ...candidates],
          train: split.train,
        }),
      });
      text = answer.text;
      tokensIn += tokenCount(answer.usage.inputTokens) ?? 0;
      tokensOut += tokenCount(answer.usage.outputTokens) ?? 0;
    } catch (error) {
      notes.push(`round ${round}: ${resolved.describeError(error).message}`);
      break;
    }
    const description = readDescription(text);
    if (!description || [baseline, ...candidates].some((c) => c.description === description)) {
      notes.push(
        `round ${round}: the model gave ${description ? 'a description already tried' : 'no description'}`,
      );
      continue;
    }
    const judged = judge(o.skills, o.id, description, split, o.config, round);
    candidates.push(judged);
    if (judged.train.passed > best.train.passed) best = judged;
  }
  return {
    id: o.id,
    name: skill.metadata.name,
    file: skill.summary.file,
    content_hash: hashOf(skillMd),
    train: split.train.map((c) => c.query),
    test: split.test.map((c) => c.query),
    baseline,
    candidates,
    best: best === baseline ? null : candidates.indexOf(best),
    model: resolved.description.model,
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    notes,
  };
}

/**
 * Writes a tuned description into SKILL.md's frontmatter, keeping every other field, comment and
 * the body as they are — only when SKILL.md is still the file the tuning read (`contentHash`) and
 * its frontmatter is plain YAML at the top (a file the lenient loader had to repair is the
 * author's to edit by hand).
 */
export function writeDescription(file: string, description: string, contentHash: string): void {
  const text = readDescription(description);
  if (!text) throw new EngineError('invalid_params', 'The description is empty.');
  const before = fs.readFileSync(file, 'utf8');
  if (hashOf(before) !== contentHash)
    throw new EngineError(
      'invalid_params',
      `${file} changed since the description was tuned; tune it again.`,
    );
  const bom = before.startsWith('\uFEFF') ? '\uFEFF' : '';
  const crlf = before.includes('\r\n');
  const lines = before.slice(bom.length).replace(/\r\n/g, '\n').split('\n');
  const close = lines.indexOf('---', 1);
  const doc = lines[0] === '---' && close > 0 ? parseDocument(lines.slice(1, close).join('\n')) : null;
  if (!doc || doc.errors.length > 0 || !isMap(doc.contents))
    throw new EngineError(
      'invalid_params',
      `${file}'s frontmatter is not plain YAML at the top of the file; set its description by hand.`,
    );
  doc.set('description', text);
  const yaml = doc.toString({ lineWidth: 0 }).replace(/\n$/, '');
  const after = ['---', yaml, ...lines.slice(close)].join('\n');
  writeFileAtomicSync(
    file,
    bom + (crlf ? after.replace(/\n/g, '\r\n') : after),
    fs.statSync(file).mode & 0o777,
  );
}
