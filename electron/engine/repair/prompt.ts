import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Eligibility, RunResult } from '../../../shared/contract';
import { extractDiff, fencedDiffs, parseUnifiedDiff, type FilePatch } from './diffs';
import type { Evidence } from './evidence';
import { otherPatchForm } from './patchForms';
import { headerlessTarget, wholeFileForm } from './wholeFile';
import { REPAIR_BUDGET } from './guards';
import type { SkillSnapshot } from './snapshot';

/** How the model is called (injected: issue 8's providers, or a scripted one in tests). */
export type Complete = (prompt: { system: string; user: string }, signal?: AbortSignal) => Promise<string>;

/** Caps on what goes into the prompt (characters). */
export const PROMPT_LIMITS = { stderr: 4_000, output: 2_000, skillDoc: 12_000, file: 8_000, files: 30_000 };

/** What the previous attempt left for this one (DESIGN §5: rejected hunks and the reason go back in). */
export interface PriorAttempt {
  diff: string;
  /** Why a guard refused it, when one did. */
  refusal?: string;
  /** What its replay showed. */
  replay?: string;
  /** The user's reason for rejecting it. */
  userReason?: string;
  /** The hunks the user rejected, as diff text. */
  rejectedHunks?: string[];
  /** The hunks the user left accepted when turning down only some, as diff text. */
  keptHunks?: string[];
  /** Files the user rewrote on the proposed side before rejecting, as diffs from the original. */
  userEdits?: string[];
}

export interface PromptInput {
  run: RunResult;
  skill: SkillSnapshot;
  eligibility: Eligibility;
  evidence: Evidence;
  task?: string;
  input?: Record<string, unknown>;
  prior?: PriorAttempt[];
  /** The first lines of input files the task names (a CSV header explains a KeyError). */
  inputPeeks?: { path: string; head: string }[];
}

/**
 * The first lines of the files `INPUT_JSON` names, read only inside the run's working
 * folder (never an absolute path or `..`): a KeyError on `amount` means nothing to the
 * model until it sees the header says `Amount`.
 */
export async function peekInputFiles(
  run: RunResult,
  input: Record<string, unknown> | undefined,
): Promise<{ path: string; head: string }[]> {
  if (!run.cwd || !input) return [];
  const cwd = await fsp.realpath(run.cwd).catch(() => undefined);
  if (!cwd) return [];
  const out: { path: string; head: string }[] = [];
  for (const value of Object.values(input)) {
    if (
      typeof value !== 'string' ||
      value.length > 300 ||
      path.isAbsolute(value) ||
      !/\.\w{1,5}$/.test(value)
    )
      continue;
    // Resolved through links: a link in the work folder must not leak a file from elsewhere.
    const file = await fsp.realpath(path.resolve(cwd, value)).catch(() => undefined);
    if (!file?.startsWith(cwd + path.sep)) continue;
    const handle = await fsp.open(file, 'r').catch(() => undefined);
    if (!handle) continue;
    try {
      const buf = Buffer.alloc(600);
      const { bytesRead } = await handle.read(buf, 0, 600, 0);
      const text = buf.subarray(0, bytesRead).toString('utf8');
      if (!text.includes('\0')) out.push({ path: value, head: text.split('\n').slice(0, 5).join('\n') });
    } finally {
      await handle.close();
    }
    if (out.length >= 3) break;
  }
  return out;
}

const SYSTEM = `You repair agent skills. A skill is a folder with SKILL.md (YAML frontmatter and Markdown instructions), optional scripts/ and references/. A run of the skill failed but nearly worked. Propose the smallest change to the skill itself that makes the same run succeed.

Rules:
- Change only SKILL.md, files under scripts/ and files under references/. Paths are relative to the skill root.
- Never change the frontmatter name, permissions, execution_policy, allowed-tools or entrypoints. Never add scripts, shebangs or executable files. Never delete or rename files.
- At most ${REPAIR_BUDGET.files} files, ${REPAIR_BUDGET.hunks} hunks, and ${REPAIR_BUDGET.addedTokens} added words in SKILL.md.
- The same run is replayed with the same input; fix the skill, not the input.

Answer in exactly this form:
ROOT_CAUSE: <one sentence>
EXPECTED_EFFECT: <one sentence>
\`\`\`diff
--- a/<path>
+++ b/<path>
@@ -<line>,<count> +<line>,<count> @@
 context line
-removed line
+added line
\`\`\`

If the failure cannot be fixed inside the skill, answer only: NO_FIX: <why>`;

const head = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n)}\n[… cut at ${n} characters]`);
const tail = (s: string, n: number) =>
  s.length <= n ? s : `[… ${s.length - n} earlier characters cut]\n${s.slice(-n)}`;
const block = (lang: string, text: string) => `\`\`\`${lang}\n${text.replace(/```/g, '`\u200b``')}\n\`\`\``;

/** The files the model sees: SKILL.md, every script, and the references the failure names. */
function filesSection(p: PromptInput): string {
  const { skill, evidence } = p;
  const named = new Set(evidence.missingPaths.map((m) => m.split('/').slice(0, 1).join('/')));
  const mentioned = (f: string) => evidence.text.includes(f) || [...named].some((d) => f.startsWith(`${d}/`));
  const chosen = [
    skill.skillFile,
    ...skill.listing.filter((f) => f.startsWith('scripts/')),
    ...skill.listing.filter((f) => f.startsWith('references/') && mentioned(f)),
  ];
  let budget = PROMPT_LIMITS.files;
  const parts: string[] = [`Files in the skill: ${skill.listing.join(', ') || '(none)'}`];
  for (const f of chosen) {
    const text = skill.texts.get(f);
    if (text === undefined || budget <= 0) continue;
    const cap = Math.min(budget, f === skill.skillFile ? PROMPT_LIMITS.skillDoc : PROMPT_LIMITS.file);
    const shown = head(text, cap);
    budget -= shown.length;
    parts.push(`### ${f}\n${block('', shown)}`);
  }
  return parts.join('\n\n');
}

function priorSection(prior: PriorAttempt[] | undefined): string {
  if (!prior || prior.length === 0) return '';
  return prior
    .map((a, i) => {
      // Turned down in part: the hunks the user kept are right, and "do not repeat it" would drop them too.
      const partly = (a.keptHunks?.length ?? 0) > 0;
      const title = partly ? 'the user turned down part of it' : 'do not repeat it';
      const lines = [`## Previous attempt ${i + 1} (${title})`, block('diff', head(a.diff, 4_000))];
      if (a.refusal) lines.push(`It was refused: ${a.refusal}`);
      if (a.replay) lines.push(`Its replay: ${a.replay}`);
      if (a.userReason) lines.push(`The user rejected it: ${a.userReason}`);
      if (a.rejectedHunks?.length)
        lines.push(
          'The user rejected these hunks:',
          ...a.rejectedHunks.map((h) => block('diff', head(h, 1_500))),
        );
      if (a.userEdits?.length)
        lines.push(
          'Before rejecting, the user edited the proposed side to this (their own idea of the fix):',
          ...a.userEdits.map((d) => block('diff', head(d, 3_000))),
        );
      if (partly)
        lines.push(
          'The user kept these hunks (propose them again):',
          ...(a.keptHunks ?? []).map((h) => block('diff', head(h, 1_500))),
        );
      return lines.join('\n');
    })
    .join('\n\n');
}

/** The model prompt for one attempt (DESIGN §5). */
export function buildRepairPrompt(p: PromptInput): { system: string; user: string } {
  const { run, skill, eligibility } = p;
  const facts = [
    `Skill: ${skill.metadata.name} (${skill.metadata.type})`,
    p.task ? `Task: ${head(p.task, 2_000)}` : undefined,
    p.input ? `INPUT_JSON: ${head(JSON.stringify(p.input), 2_000)}` : undefined,
    run.command.length > 0
      ? `Command: ${run.command.join(' ')}`
      : 'Command: (none: the model followed SKILL.md)',
    `Status: ${run.status}; exit code: ${run.exit_code ?? 'none'}`,
    run.error ? `Error: ${head(run.error, 1_000)}` : undefined,
  ].filter(Boolean);
  const user = [
    '## The failing run',
    facts.join('\n'),
    `### stderr\n${block('', tail(run.stderr, PROMPT_LIMITS.stderr) || '(empty)')}`,
    `### output\n${block('', run.output.length > PROMPT_LIMITS.output ? `${head(run.output, PROMPT_LIMITS.output / 2)}\n${tail(run.output, PROMPT_LIMITS.output / 2)}` : run.output || '(empty)')}`,
    p.inputPeeks?.length
      ? `### input files (first lines)\n${p.inputPeeks.map((f) => `${f.path}:\n${block('', f.head)}`).join('\n')}`
      : '',
    `## Diagnosis\n${eligibility.reason}\n${eligibility.evidence.map((e) => `- ${e}`).join('\n')}`,
    `## The skill\n${filesSection(p)}`,
    priorSection(p.prior),
    'Reply with ROOT_CAUSE, EXPECTED_EFFECT and one ```diff block, or NO_FIX.',
  ].filter(Boolean);
  return { system: SYSTEM, user: user.join('\n\n') };
}

/** A model answer read into a diff and its record, or why it is unusable. */
export type ModelAnswer =
  | {
      ok: true;
      diff: string;
      files: FilePatch[];
      /** With several fenced diffs, the last alone: for when they do not apply one after another. */
      lastBlock?: { diff: string; files: FilePatch[] };
      root_cause: string | null;
      expected_effect: string | null;
    }
  | { ok: false; reason: string };

/**
 * Without a ROOT_CAUSE line, the sentences a model wrote before its diff ("The header is now
 * Amount, so …") are its cause; a word or two, or nothing, is none.
 */
function proseBefore(answer: string, starts: number[]): string | null {
  const at = Math.min(...starts.filter((i) => i >= 0));
  const prose = answer
    .slice(0, at)
    // `[^\S\n]`, not `\s`: a `\s*` at each line start ran over every blank line below it.
    .replace(/^[^\S\n]*#+.*$/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (prose.split(' ').length < 3) return null;
  return prose.length > 300 ? `${prose.slice(0, 299)}…` : prose;
}

function field(answer: string, label: string, jsonKey: string): string | undefined {
  const line = new RegExp(`^[^\\S\\n]*\\**${label}\\**\\s*:\\s*(.+)$`, 'im').exec(answer)?.[1];
  if (line)
    return line
      .trim()
      .replace(/^\*+|\*+$/g, '')
      .trim();
  const json = new RegExp(`"${jsonKey}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(answer)?.[1];
  if (json === undefined) return undefined;
  try {
    return JSON.parse(`"${json}"`) as string;
  } catch {
    return json;
  }
}

/** The text of a `"diff"` (or `"patch"`) string in a JSON answer, as models in JSON mode write it. */
function jsonDiff(answer: string): string | null {
  const value = /"(?:diff|patch)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(answer)?.[1];
  if (value === undefined) return null;
  try {
    return JSON.parse(`"${value}"`) as string;
  } catch {
    return null;
  }
}

/** Reads a model's answer robustly: any text in, a usable diff or a clear reason out, never a throw. */
/**
 * `current`: the text of each file a patch may touch, to read a whole-file answer against;
 * `original`: those files before any attempt, where bare hunks may find their file too.
 */
export function parseModelAnswer(
  answer: unknown,
  current?: ReadonlyMap<string, string>,
  original?: ReadonlyMap<string, string>,
): ModelAnswer {
  if (typeof answer !== 'string' || answer.trim() === '')
    return { ok: false, reason: "The model's answer was empty, so it had no usable diff." };
  // Codex's and Aider's forms first: a Codex patch has `@@` lines a ```diff fence would take.
  const patchForm = otherPatchForm(answer);
  const unified = patchForm ? null : extractDiff(answer);
  // The corrected file whole, only where no diff is: a diff's answer may show the result too.
  const whole = patchForm || unified !== null || !current ? null : wholeFileForm(answer, current);
  if (whole && 'refused' in whole) return { ok: false, reason: whole.refused };
  const other = patchForm ?? whole;
  const plain = other?.diff ?? unified;
  const diff = plain ?? extractDiff(jsonDiff(answer) ?? '');
  if (diff === null) {
    const noFix = /^[^\S\n]*NO_FIX\s*:\s*(.+)$/im.exec(answer)?.[1];
    return noFix
      ? { ok: false, reason: `The model found no fix inside the skill: ${noFix.trim().slice(0, 300)}` }
      : /```[ \t]*(?:diff|patch|udiff)\b/i.test(answer)
        ? {
            ok: false,
            reason:
              "The model's answer had no usable diff: its ```diff block holds no file header (--- a/…, +++ b/…) or hunk (@@).",
          }
        : { ok: false, reason: "The model's answer had no usable diff (no ```diff block)." };
  }
  // Bare `@@` hunks: the file they are for, from the answer or the one file that holds their lines.
  const target =
    (current && headerlessTarget(answer, diff, current)) ||
    (original && headerlessTarget(answer, diff, original));
  const headed = target ? `--- a/${target}\n+++ b/${target}\n${diff}` : diff;
  const parsed = parseUnifiedDiff(headed);
  if (!parsed.ok) return { ok: false, reason: `The model's answer had no usable diff: ${parsed.reason}` };
  const blocks = other ? [] : fencedDiffs(answer);
  const last = blocks.length > 1 ? parseUnifiedDiff(`${blocks[blocks.length - 1]}\n`) : null;
  return {
    ok: true,
    diff: headed,
    files: parsed.files,
    ...(last?.ok ? { lastBlock: { diff: `${blocks[blocks.length - 1]}\n`, files: last.files } } : {}),
    root_cause:
      field(answer, 'ROOT[_ ]CAUSE', 'root_cause') ??
      // JSON around a diff is no prose.
      (plain === null
        ? null
        : proseBefore(answer, [
            answer.indexOf('```'),
            other ? other.start : answer.indexOf(diff.slice(0, 40)),
          ])),
    expected_effect: field(answer, 'EXPECTED[_ ]EFFECT', 'expected_effect') ?? null,
  };
}
