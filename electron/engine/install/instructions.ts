/**
 * What a skill's instructions tell the agent to do, read before install (what-users-ask §7:
 * registry supply-chain attacks): the Markdown the model will follow, SKILL.md (frontmatter too,
 * since the description reaches the model) and references/**.md, and the scripts it will run, read
 * as code with the command rules only. Each rule is one line pattern; a finding names the line and
 * says why.
 *
 * Precision over recall: a rule only fires on wording that asks for the act, not on a topic.
 * Measured over the 3,483 corpus skill files in ../shared/corpus (instructions.corpus.test.ts):
 * 116 flagged, 27 with a danger finding, 98 with a caution. Read by hand: 26 of the 27 danger
 * skills are real lures (a password-zip / base64-to-shell malware campaign, the openclawcli
 * glot.io "prerequisite", a gist piped to bash, a prompt injection); the 27th is a security
 * scanner quoting attack commands as examples. In a random sample of 30 flagged skills, 27 of
 * the findings say what the skill really asks (the 3 misses: that scanner, an audit report quoting
 * `cat ~/.ssh/id_rsa`, and a `.pub` key since fixed). The destructive rule (`rm -rf ~`, `mkfs`,
 * `dd of=/dev/sda`, a fork bomb) flags none of them: the corpus' 28 lines with such commands delete
 * a build or temp folder or the skill's own data, or list the commands in a guard's block list.
 * The corpus keeps no scripts; as code, 13,076 real ones (Debian's /usr/bin and /usr/sbin scripts,
 * Python's standard library, node_modules' shell, Python and JS files) gave 2 files a caution and
 * none a danger.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { InstructionFinding } from '../../../shared/contract';
import {
  CONTEXT_LINE,
  DESCRIBES,
  DOCUMENTARY,
  HEADING,
  NEGATED,
  RULES,
  quotedAt,
  type Rule,
} from './instructionRules';
import { WARNS } from './destructivePatterns';

type Kind = InstructionFinding['kind'];

/** At most this many findings per skill: the preview is for reading. */
export const MAX_FINDINGS = 20;
const MAX_EXCERPT = 180;

/** Source lines joined across shell continuations (`\` at the end), each with its first line number. */
function logicalLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const start = i;
    let joined = lines[i];
    while (/\\\s*$/.test(joined) && i + 1 < lines.length && i - start < 10) {
      i += 1;
      joined = `${joined.replace(/\\\s*$/, ' ')}${lines[i]}`;
    }
    out.push({ line: start + 1, text: joined });
  }
  return out;
}

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT - 1)}…` : flat;
}

/**
 * A lead-in that asks to run what follows ("Run this to reset:"): under a heading that warns, it
 * ends the warning, so a skill cannot hide its steps under "## Dangerous commands". A guard's
 * lead-in ("The hook refuses to run these:") keeps it.
 */
const RUN_LEAD = /\b(?:run|execute|type|paste|enter)\b/i;
const GUARD_LEAD =
  /\b(?:refus\w*|reject\w*|catch\w*|detect\w*|flag\w*|prevent\w*|stop\w*|intercept\w*|guard\w*)\b/i;
/**
 * A whole-line comment in a script (shell, Python, Ruby, Perl, JS/TS, Lua, PowerShell, cmd); a
 * block comment that closes with code after it (`/* x *\/ rm -rf ~`) is not one.
 */
const CODE_COMMENT =
  /^\s*(?:#(?!.*#>\s*\S)|\/\/|(?:\/\*|\*(?:\s|$))(?!.*\*\/\s*\S)|--\s|<#(?!.*#>\s*\S)|rem\s|::)/i;

/**
 * The findings in one instruction file (`file` is its path in the skill, `/`-separated), one per
 * line and kind, the more severe rule winning. `rules`: all of them unless told. With `code`, the
 * text is a script: it runs line by line, so there are no headings or lead-ins, a comment line is
 * skipped, and a warning word on a line does not stop what the line runs.
 */
export function scanInstructionText(
  text: string,
  file: string,
  rules: readonly Rule[] = RULES,
  code = false,
): InstructionFinding[] {
  const out: InstructionFinding[] = [];
  let documentary = false;
  let warned = false;
  let fenced = false;
  for (const { line, text: raw } of logicalLines(text)) {
    if (code && CODE_COMMENT.test(raw)) continue;
    if (!code && /^\s*(?:```|~~~)/.test(raw)) fenced = !fenced;
    // Emphasis splits phrases ("**NEVER ask** whether"); the excerpt keeps it.
    const lineText = code ? raw : raw.replace(/\*\*|__/g, '');
    // A heading sets the context; a lead-in line under it ("**Patterns to detect:**") adds to it,
    // or ends its warning when it asks to run what follows.
    // A `#` line inside a code fence is a shell comment, not a heading.
    if (code) {
      // A script has no headings: its lines run whatever a comment above them says.
    } else if (!fenced && HEADING.test(lineText)) {
      documentary = DOCUMENTARY.test(lineText);
      warned = WARNS.test(lineText);
    } else if (CONTEXT_LINE.test(raw)) {
      if (DOCUMENTARY.test(lineText)) documentary = true;
      if (WARNS.test(lineText)) warned = true;
      else if (!fenced && RUN_LEAD.test(lineText) && !GUARD_LEAD.test(lineText)) warned = false;
    }
    const seen = new Set<Kind>();
    for (const rule of rules) {
      if (seen.has(rule.kind)) continue;
      if (code && (rule.prose || rule.readerOnly)) continue;
      if (!rule.all.every((re) => re.test(lineText))) continue;
      // In a script, "not" or "no" on a line is code, not a refusal of the act.
      if (rule.unless && !(code && rule.unless === NEGATED) && rule.unless.test(lineText)) continue;
      if (rule.refute?.(rule.all[0].exec(lineText)!, text)) continue;
      if (
        rule.prose &&
        (documentary || DESCRIBES.test(lineText) || quotedAt(lineText, lineText.search(rule.all[0])))
      )
        continue;
      if (rule.warned && !code && (warned || WARNS.test(lineText.slice(0, lineText.search(rule.all[0])))))
        continue;
      // Rules are listed danger first within a kind, so the first match is the strongest.
      seen.add(rule.kind);
      out.push({
        severity: rule.severity,
        kind: rule.kind,
        file,
        line,
        excerpt: excerptOf(raw),
        reason: rule.reason,
      });
    }
  }
  return out;
}

/**
 * The danger rules' patterns over a whole text, with `^` and `$` at each line: a text none of
 * whose danger rules has every pattern somewhere cannot hold a danger line, which is most texts.
 */
const DANGER_RULES = RULES.filter((rule) => rule.severity === 'danger');
const DANGER_PREFILTER = DANGER_RULES.map((rule) =>
  rule.all.map((re) => new RegExp(re.source, re.flags.replace(/[gm]/g, '') + 'm')),
);

/**
 * Every danger rule's key phrase in one pattern: a text it does not match holds no danger line.
 * One pass costs about half of trying each key phrase alone, and 85 % of the corpus' SKILL.md
 * files stop there. Case-insensitive throughout, which can only let more texts through; built
 * only while no key phrase carries a flag (`s`, `u`, `y`) or group reference a union would change.
 */
const DANGER_GATE = DANGER_PREFILTER.every(
  ([key]) => /^[im]*$/.test(key.flags) && !/\\[1-9k]/.test(key.source),
)
  ? new RegExp(DANGER_PREFILTER.map(([key]) => `(?:${key.source})`).join('|'), 'im')
  : /^/;

/**
 * The first line of `text` that asks for a harmful act (a `danger` finding), or null. For every
 * listed skill's SKILL.md (the skill list marks it, the router holds it back), so it reads the
 * whole text with a few patterns first and scans line by line only when a danger rule could match.
 */
export function firstDanger(text: string, file: string): InstructionFinding | null {
  // Continued shell lines joined, as logicalLines does.
  const joined = text.replace(/\\[ \t]*\r?\n/g, ' ');
  if (!DANGER_GATE.test(joined)) return null;
  if (!DANGER_PREFILTER.some((patterns) => patterns.every((re) => re.test(joined)))) return null;
  // Danger rules only: they come first within their kind, so a line's danger finding is the same.
  return scanInstructionText(text, file, DANGER_RULES)[0] ?? null;
}

/** Danger before caution, then by file (SKILL.md first) and line; at most MAX_FINDINGS. */
export function sortFindings(findings: InstructionFinding[]): InstructionFinding[] {
  const rank = (f: InstructionFinding) => (f.severity === 'danger' ? 0 : 1);
  const fileRank = (f: InstructionFinding) => (f.file.includes('/') ? 1 : 0);
  return [...findings]
    .sort(
      (a, b) =>
        rank(a) - rank(b) || fileRank(a) - fileRank(b) || a.file.localeCompare(b.file) || a.line - b.line,
    )
    .slice(0, MAX_FINDINGS);
}

/** Largest instruction file read (a bigger one is scanned up to here). */
const MAX_READ = 512 * 1024;
/**
 * Largest script read: all of what an install lets in per file (limits.ts), since the whole file
 * runs and padding must not push a command out of sight. 50 MiB of scripts scan in a few seconds.
 */
const MAX_SCRIPT_READ = 10 * 1024 * 1024;

/** Instruction files among a skill's files: the skill file and Markdown under references/. */
export const isInstructionFile = (rel: string, skillFile: string): boolean =>
  rel === skillFile || /^references\/.+\.md$/i.test(rel);

/**
 * Script files among a skill's files: anything with a script language (by shebang or extension)
 * and any other non-Markdown file under scripts/, which the runner may execute.
 */
export const isScriptFile = (f: { path: string; scriptLanguage?: string }): boolean =>
  f.scriptLanguage !== undefined || (/^scripts\//i.test(f.path) && !/\.(?:md|txt)$/i.test(f.path));

/**
 * Scans a skill folder's instruction files (`rels`: paths relative to `dir`, `/`-separated) and
 * its scripts (`scripts`, read as code: the command rules only). An unreadable or binary file is
 * skipped: the loader reports an unreadable one already.
 */
export function scanSkillInstructions(
  dir: string,
  rels: readonly string[],
  scripts: readonly string[] = [],
): InstructionFinding[] {
  const findings: InstructionFinding[] = [];
  for (const rel of rels) {
    const text = readInstructionFile(dir, rel);
    if (text !== null) findings.push(...scanInstructionText(text, rel));
  }
  for (const rel of scripts) {
    const text = readInstructionFile(dir, rel, MAX_SCRIPT_READ);
    if (text !== null && !text.includes('\0')) findings.push(...scanInstructionText(text, rel, RULES, true));
  }
  return sortFindings(findings);
}

/** The first danger line of one instruction file (`rel` in `dir`), or null; an unreadable file has none. */
export function readDangerLine(dir: string, rel: string): InstructionFinding | null {
  const text = readInstructionFile(dir, rel);
  return text === null ? null : firstDanger(text, rel);
}

/** Up to `max` bytes of an instruction file as UTF-8; null when it cannot be read. */
function readInstructionFile(dir: string, rel: string, max = MAX_READ): string | null {
  try {
    const fd = fs.openSync(path.join(dir, ...rel.split('/')), 'r');
    try {
      // Sized to the file: the engine's list reads every SKILL.md, and zeroing a 512 KiB buffer
      // for each one cost more than reading and scanning the corpus together.
      const buf = Buffer.allocUnsafe(Math.min(fs.fstatSync(fd).size, max));
      return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * What a remembered danger line depends on besides its file: every rule, the helpers that place
 * a finding, and the code that reads and scans, so a cache of `readDangerLine` answers (the skill
 * list's) is dropped whenever any of them changes. Code elsewhere that changes a finding must bump
 * FLAG_LOGIC.
 */
const FLAG_LOGIC = 1;
export const DANGER_RULES_ID = createHash('sha256')
  .update(
    JSON.stringify([
      FLAG_LOGIC,
      MAX_READ,
      MAX_EXCERPT,
      RULES.map((rule) => [
        rule.kind,
        rule.severity,
        rule.all.map(String),
        String(rule.unless),
        rule.prose,
        rule.warned,
        rule.readerOnly,
        String(rule.refute),
        rule.reason,
      ]),
      [CONTEXT_LINE, DESCRIBES, DOCUMENTARY, HEADING, WARNS].map(String),
      [quotedAt, logicalLines, excerptOf, scanInstructionText, firstDanger, readInstructionFile].map(String),
    ]),
  )
  .digest('hex')
  .slice(0, 16);
