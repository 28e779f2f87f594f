import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SkillMetadata } from '../../../shared/contract';
import { readFileTree } from '../skills/files';
import {
  interpretSkill,
  readSkillTexts,
  type InterpretedSkill,
  type SkillLocation,
} from '../skills/loadSkill';

/** Text files larger than this are listed but not loaded (a repair never patches them). */
const MAX_TEXT_BYTES = 256 * 1024;

/** What the repair loop knows about a skill: metadata, its files, and the hash proposals bind to. */
export interface SkillSnapshot {
  dir: string;
  /** The skill file as found: `SKILL.md` (or `skill.md`). */
  skillFile: string;
  metadata: SkillMetadata;
  /** Every file, relative `/` paths, sorted. */
  listing: string[];
  /** Text of the files a patch may touch (SKILL.md, scripts/**, references/**), LF or CRLF as on disk. */
  texts: Map<string, string>;
  /** Relative paths that are symlinks (never patched: they may point outside the skill). */
  links: Set<string>;
  /** Relative paths with an executable bit. */
  executables: Set<string>;
  /** `readFileTree`'s sha256 over every path and byte: the same hash approvals bind to. */
  contentHash: string;
}

/** True for the paths a repair may touch (DESIGN §5: `SKILL.md`, `scripts/*`, `references/*`). */
export function isPatchable(rel: string, skillFile = 'SKILL.md'): boolean {
  return rel === skillFile || rel.startsWith('scripts/') || rel.startsWith('references/');
}

/** The skill file as discovery finds it: `SKILL.md`, else any spelling of it (skill.md, Skill.md). */
export function skillFileIn(dir: string): string {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 'SKILL.md';
  }
  if (names.includes('SKILL.md')) return 'SKILL.md';
  return names.find((n) => n.toLowerCase() === 'skill.md') ?? 'SKILL.md';
}

/** Reads a skill folder for the repair loop (metadata through the real lenient loader). */
export async function readSnapshot(dir: string): Promise<SkillSnapshot> {
  const abs = path.resolve(dir);
  const skillFile = skillFileIn(abs);
  const metadata = await loadMetadata(abs, skillFile);
  const tree = await readFileTree(abs);
  const listing: string[] = [];
  const texts = new Map<string, string>();
  const links = new Set<string>();
  const executables = new Set<string>();
  for (const entry of tree.files) {
    if (entry.kind !== 'file') continue;
    listing.push(entry.path);
    if (entry.executable) executables.add(entry.path);
    const full = path.join(abs, entry.path);
    const st = await fsp.lstat(full).catch(() => undefined);
    if (!st) continue;
    if (st.isSymbolicLink()) {
      links.add(entry.path);
      continue;
    }
    if (!isPatchable(entry.path, skillFile) || st.size > MAX_TEXT_BYTES) continue;
    const text = decodeStrict(await fsp.readFile(full));
    if (text !== undefined) texts.set(entry.path, text);
  }
  return { dir: abs, skillFile, metadata, listing, texts, links, executables, contentHash: tree.contentHash };
}

/**
 * UTF-8 text, or undefined for anything else: a file with NUL bytes or invalid UTF-8 is
 * never patched, because a round trip through a string would change bytes no hunk touched.
 */
function decodeStrict(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The skill's normalized metadata, read by the same loader the catalog uses. */
export async function loadMetadata(dir: string, skillFile = 'SKILL.md'): Promise<SkillMetadata> {
  return (await interpretDir(dir, skillFile)).metadata;
}

/** The skill as the catalog's loader reads it, with `skillMd` in place of its skill file when given. */
export async function interpretDir(
  dir: string,
  skillFile: string,
  skillMd?: string,
): Promise<InterpretedSkill> {
  const has = (name: string) => fs.existsSync(path.join(dir, name));
  const location: SkillLocation = {
    dir,
    fileName: skillFile,
    root: path.dirname(dir),
    source: 'extra',
    skillYaml: has('skill.yaml') ? 'skill.yaml' : has('skill.yml') ? 'skill.yml' : undefined,
    hasAgentsDir: has('agents'),
    hasScriptsDir: has('scripts'),
  };
  const texts = await readSkillTexts(location);
  return interpretSkill(
    location,
    skillMd === undefined ? texts : { ...texts, skillMd, bodyHead: undefined },
    process.platform,
  );
}

/** The content hash of a skill folder now (stale checks). */
export async function contentHashOf(dir: string): Promise<string> {
  return (await readFileTree(dir)).contentHash;
}

/** sha256 of some bytes, hex (revision records). */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
