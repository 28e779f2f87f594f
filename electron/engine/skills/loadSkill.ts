import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Problem, SkillMetadata, SkillSource } from '../../../shared/contract';
import { normalizeText, splitFrontmatter } from './frontmatter';
import { readOpenAiLayer, readSkillLayer, type Layer } from './layer';
import { decodeSkillFile, utf8Problem } from './encoding';
import { composeMetadata } from './metadata';
import { error, warning } from './problems';
import { parseYamlLenient, type LenientYaml } from './yamlLenient';

/** Where a skill was found, and which of its sidecars exist (known from the scan's readdir). */
export interface SkillLocation {
  /** Absolute path of the skill folder: the skill's id. */
  dir: string;
  /** The skill file's name as found: `SKILL.md`, or `skill.md` / `Skill.md`. */
  fileName: string;
  root: string;
  source: SkillSource;
  /** `skill.yaml` or `skill.yml` when present. */
  skillYaml?: string;
  hasAgentsDir: boolean;
  hasScriptsDir: boolean;
}

/** The files of one skill as text; `undefined` = absent. */
export interface SkillTexts {
  skillMd: string;
  /** What was wrong with SKILL.md's encoding (not UTF-8), when something was. */
  encoding?: Problem;
  /** The start of the body the scan already read past the frontmatter (for routing hints). */
  bodyHead?: string;
  /** `skill.yaml` (or `skill.yml`): its file name and text. */
  skillYaml?: { file: string; text: string };
  openaiYaml?: string;
  scriptsHasFiles: boolean;
}

export interface InterpretedSkill {
  metadata: SkillMetadata;
  /** Every problem of the skill itself (shadowing is added by the catalog). */
  problems: Problem[];
  /** True when `os` excludes this platform: listed, never routed. */
  osExcluded: boolean;
  rawFrontmatter: string;
  body: string;
  sidecars: { file: string; raw: string }[];
}

export const OPENAI_YAML = 'agents/openai.yaml';

/** Turns a skill's texts into normalized metadata and problems. Pure: no I/O. */
export function interpretSkill(
  loc: SkillLocation,
  texts: SkillTexts,
  platform: NodeJS.Platform,
): InterpretedSkill {
  const split = splitFrontmatter(texts.skillMd);
  const problems: Problem[] = texts.encoding ? [texts.encoding, ...split.problems] : [...split.problems];
  if (loc.fileName !== 'SKILL.md') {
    problems.push(
      warning(
        'skill-file-name',
        `The skill file is named ${loc.fileName}; rename it to SKILL.md, the name every client looks for.`,
      ),
    );
  }
  const layers: Layer[] = [];
  const readLayer = (y: LenientYaml, file: string, read: typeof readSkillLayer) => {
    const fields: Problem[] = [];
    layers.push(read(y.data, file, fields));
    problems.push(...onePerValue(y.problems, fields));
  };
  // A frontmatter that failed is still read for what was salvaged; a sidecar that failed is ignored.
  const frontmatter = split.found ? parseYamlLenient(split.yaml, split.lineOffset) : undefined;
  if (frontmatter) readLayer(frontmatter, 'SKILL.md', readSkillLayer);
  const sidecars: { file: string; raw: string }[] = [];
  const sidecar = (file: string, raw: string, read: typeof readSkillLayer) => {
    sidecars.push({ file, raw });
    const y = parseYamlLenient(normalizeText(raw).text, 0, file);
    if (y.ok) readLayer(y, file, read);
    else problems.push(...y.problems);
  };
  if (texts.openaiYaml !== undefined) sidecar(OPENAI_YAML, texts.openaiYaml, readOpenAiLayer);
  if (texts.skillYaml) sidecar(texts.skillYaml.file, texts.skillYaml.text, readSkillLayer);

  const folderName = path.basename(loc.dir);
  const fieldProblems: Problem[] = [];
  const metadata = composeMetadata(layers, {
    folderName,
    scriptsHasFiles: texts.scriptsHasFiles,
    problems: fieldProblems,
  });
  // Without frontmatter, or with one too large to read, "name / description missing" would only
  // repeat the real problem.
  const repeats = new Set(frontmatter && !frontmatter.unread ? [] : ['name-missing', 'description-missing']);
  problems.push(...fieldProblems.filter((p) => !repeats.has(p.code)));

  const os = metadata.requires.os;
  const osExcluded =
    os.length > 0 && !os.includes(platform) && !os.some((o) => ['any', 'all', '*'].includes(o));
  if (osExcluded) {
    problems.push(
      warning(
        'os-unsupported',
        `This skill is for ${os.join(', ')} only, so it is not offered on ${platform}.`,
        {
          field: 'requires.os',
        },
      ),
    );
  }
  return { metadata, problems, osExcluded, rawFrontmatter: split.raw, body: split.body, sidecars };
}

/**
 * A value the YAML repair read as text and its field then refused (`metadata: a: b`) is
 * one mistake: "put it in double quotes" would not help such a field, so only the field's
 * warning is kept, with the repair's line.
 */
function onePerValue(yaml: Problem[], fields: Problem[]): Problem[] {
  const refused = new Map(fields.filter((p) => p.code === 'field-type').map((p) => [p.field, p]));
  const kept = yaml.filter((p) => {
    const field = p.code === 'yaml-recovered' && p.field !== undefined ? refused.get(p.field) : undefined;
    if (field && p.line !== undefined) field.line = p.line;
    return !field;
  });
  return [...kept, ...fields];
}

/** A skill whose SKILL.md cannot be read at all: listed with that error. */
export function unreadableSkill(loc: SkillLocation, reason: string): InterpretedSkill {
  return skillWithFileProblem(
    loc,
    error('file-unreadable', `${loc.fileName} could not be read (${reason}); check its permissions.`),
  );
}

/** A skill whose SKILL.md is not a readable file (discovery's `fileProblem`): listed with that error. */
export function skillWithFileProblem(loc: SkillLocation, problem: Problem): InterpretedSkill {
  const interpreted = interpretSkill(loc, { skillMd: '', scriptsHasFiles: false }, process.platform);
  return { ...interpreted, problems: [problem] };
}

/** A skill whose SKILL.md was read but whose frontmatter the YAML parser refused outright. */
export function uninterpretableSkill(loc: SkillLocation, reason: string): InterpretedSkill {
  const interpreted = interpretSkill(loc, { skillMd: '', scriptsHasFiles: false }, process.platform);
  return {
    ...interpreted,
    problems: [error('yaml-invalid', `The frontmatter of ${loc.fileName} could not be parsed: ${reason}.`)],
  };
}

const hasVisibleEntry = (names: string[]) => names.some((n) => !n.startsWith('.'));

/** How much of SKILL.md the start-up scan reads first: the frontmatter is at the top. */
const HEAD_BYTES = 4 * 1024;
const head = Buffer.allocUnsafe(HEAD_BYTES);

/**
 * Byte offset just past the closing `---` line when `bytes` starts (after a BOM and blank
 * lines) with a `---` line and holds the closing one; -1 otherwise (then the whole file is read).
 */
export function frontmatterEnd(bytes: Buffer, more: boolean): number {
  const n = bytes.length;
  const restOfLine = (j: number): number => {
    while (j < n && (bytes[j] === 32 || bytes[j] === 9 || bytes[j] === 13)) j++;
    if (j >= n) return more ? -1 : n;
    return bytes[j] === 10 ? j + 1 : -1;
  };
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < n && (bytes[i] === 10 || bytes[i] === 13 || bytes[i] === 32 || bytes[i] === 9)) i++;
  if (i > 0 && bytes[i - 1] !== 10 && i !== 3) return -1;
  if (bytes.indexOf('---', i) !== i) return -1;
  let from = restOfLine(i + 3);
  while (from > 0) {
    const at = bytes.indexOf('---', from);
    if (at < 0) return -1;
    if (bytes[at - 1] === 10) {
      const end = restOfLine(at + 3);
      if (end > 0) return end;
    }
    from = at + 3;
  }
  return -1;
}

/**
 * Reads the head of SKILL.md (the whole file when the frontmatter does not close within
 * it) and the sidecars, synchronously: the start-up scan measured fastest this way.
 * `withStat` also gives SKILL.md's mtime (for `reload()`'s change report).
 */
export function readSkillTextsSync(loc: SkillLocation, withStat = false): SkillTexts & { mtimeMs: number } {
  const file = path.join(loc.dir, loc.fileName);
  const fd = fs.openSync(file, 'r');
  let skillMd: string;
  let encoding: Problem | undefined;
  let bodyHead: string | undefined;
  let mtimeMs = 0;
  try {
    // No fstat at start-up (it measured as a fifth of the read time): a full head means "maybe more".
    if (withStat) mtimeMs = fs.fstatSync(fd).mtimeMs;
    const n = fs.readSync(fd, head, 0, HEAD_BYTES, 0);
    const more = n === HEAD_BYTES;
    // The list needs the frontmatter only: decode up to its closing line when it is in the head.
    // (UTF-16 never matches the byte search for `---`: such a file is read and decoded whole.)
    const end = frontmatterEnd(head.subarray(0, n), more);
    if (end >= 0) {
      // Up to the last full line: a multi-byte character cut at the edge must not leak in.
      const stop = more ? head.lastIndexOf(10, n - 1) : n;
      // The encoding is checked over all that was read, so a bad byte in the body's start counts too.
      encoding = utf8Problem(head.subarray(0, Math.max(end, stop)), loc.fileName);
      skillMd = head.toString('utf8', 0, end);
      if (stop > end) bodyHead = head.toString('utf8', end, stop);
    } else {
      ({ text: skillMd, problem: encoding } = decodeSkillFile(
        more ? fs.readFileSync(file) : head.subarray(0, n),
        loc.fileName,
      ));
    }
  } finally {
    fs.closeSync(fd);
  }
  const optional = (name: string): string | undefined => {
    try {
      return fs.readFileSync(path.join(loc.dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  let scriptsHasFiles = false;
  if (loc.hasScriptsDir) {
    try {
      scriptsHasFiles = hasVisibleEntry(fs.readdirSync(path.join(loc.dir, 'scripts')));
    } catch {
      scriptsHasFiles = false;
    }
  }
  const skillYaml = loc.skillYaml ? optional(loc.skillYaml) : undefined;
  const openaiYaml = loc.hasAgentsDir ? optional(OPENAI_YAML) : undefined;
  return {
    skillMd,
    encoding,
    bodyHead,
    skillYaml:
      loc.skillYaml && skillYaml !== undefined ? { file: loc.skillYaml, text: skillYaml } : undefined,
    openaiYaml,
    scriptsHasFiles,
    mtimeMs,
  };
}

/** Reads a skill's files asynchronously (for `get()`): absent sidecars are looked for again. */
export async function readSkillTexts(loc: SkillLocation): Promise<SkillTexts> {
  const optional = (file: string) => fsp.readFile(path.join(loc.dir, file), 'utf8').catch(() => undefined);
  const [bytes, skillYaml, skillYml, openaiYaml, scripts] = await Promise.all([
    fsp.readFile(path.join(loc.dir, loc.fileName)),
    optional('skill.yaml'),
    optional('skill.yml'),
    optional(OPENAI_YAML),
    fsp.readdir(path.join(loc.dir, 'scripts')).catch(() => [] as string[]),
  ]);
  const sidecar =
    skillYaml !== undefined
      ? { file: 'skill.yaml', text: skillYaml }
      : skillYml !== undefined
        ? { file: 'skill.yml', text: skillYml }
        : undefined;
  const { text, problem } = decodeSkillFile(bytes, loc.fileName);
  return {
    skillMd: text,
    encoding: problem,
    skillYaml: sidecar,
    openaiYaml,
    scriptsHasFiles: hasVisibleEntry(scripts),
  };
}
