import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The third-party dev set of issue 10 (see corpus/README.md): labelled queries over a fixed
 * 944-skill slice of ../shared/corpus, split by skill into a dev half (tuning) and a held-out
 * test half (reported, never tuned on).
 */
export interface DevQuery {
  query: string;
  /** Corpus-relative skill folders (`openclaw__skills/weathercli`); any is a right primary. Empty: none. */
  expect: string[];
  /** `en` | `zh`, and `paraphrase`, `forced`, `near-miss`, `negative` where they apply. */
  tags: string[];
  /** Set for the dev-only negatives (corpus/negatives.jsonl): they are never split into the held-out half. */
  half?: 'dev';
}

export type Half = 'dev' | 'test';

/** Beside this file in a checkout; `routing-quality/` beside the bench bundle. */
export const CORPUS_DATA =
  [path.join(__dirname, 'corpus'), path.join(__dirname, 'routing-quality')].find((dir) =>
    fs.existsSync(path.join(dir, 'queries.jsonl')),
  ) ?? path.join(__dirname, 'corpus');

function readJsonl(file: string): DevQuery[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DevQuery);
}

/**
 * The labelled queries, in file order: queries.jsonl (split by skill into the two halves), then
 * the dev-only negatives of negatives.jsonl (written in round 2 so abstention is tuned on more
 * than 26 negatives; the held-out half stays as it was).
 */
export function readDevQueries(
  file = path.join(CORPUS_DATA, 'queries.jsonl'),
  negatives = path.join(CORPUS_DATA, 'negatives.jsonl'),
): DevQuery[] {
  return [...readJsonl(file), ...(fs.existsSync(negatives) ? readJsonl(negatives) : [])];
}

/**
 * A catalog of skills the dev set never had (round 15 on): its own corpus-relative skill list and
 * queries labelled over it, written before the router saw either (corpus/README.md).
 */
export interface UnseenCatalog {
  round: string;
  skills: string[];
  queries: DevQuery[];
}

/** Every unseen catalog, by round: `unseen/<round>-skills.txt` beside `unseen/<round>-queries.jsonl`. */
export function readUnseenCatalogs(dir = path.join(CORPUS_DATA, 'unseen')): UnseenCatalog[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('-skills.txt'))
    .sort()
    .map((file) => {
      const round = file.slice(0, -'-skills.txt'.length);
      return {
        round,
        skills: readSkillSet(path.join(dir, file)),
        queries: readJsonl(path.join(dir, `${round}-queries.jsonl`)),
      };
    });
}

/** The corpus-relative folders the eval installs: every labelled skill plus the distractors. */
export function readSkillSet(file = path.join(CORPUS_DATA, 'skillset.txt')): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * Which half a query belongs to: a salted SHA-1 of its first expected skill (of the query text
 * for negatives), so every query of a skill lands in the same half. The salt keeps the split
 * independent of the unsalted hash that picked the corpus slice (see README).
 */
export function halfOf(query: DevQuery): Half {
  if (query.half) return query.half;
  const key = query.expect[0] ?? `negative:${query.query}`;
  const byte = crypto.createHash('sha1').update(`skilldeck-routing-split:${key}`).digest()[0];
  return byte < 128 ? 'dev' : 'test';
}

/**
 * Copies the skill set out of the corpus into `dest`, one folder per skill: its files and any
 * sub-folder that is not itself a skill (nested skills stay out unless listed).
 */
export function installSkillSet(corpusSkills: string, dest: string, skills = readSkillSet()): number {
  let count = 0;
  for (const rel of skills) {
    const from = path.join(corpusSkills, rel);
    if (!fs.existsSync(from)) continue;
    const to = path.join(dest, rel);
    fs.mkdirSync(to, { recursive: true });
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      const source = path.join(from, entry.name);
      if (entry.isFile()) fs.copyFileSync(source, path.join(to, entry.name));
      else if (entry.isDirectory() && !fs.existsSync(path.join(source, 'SKILL.md')))
        fs.cpSync(source, path.join(to, entry.name), { recursive: true });
    }
    count++;
  }
  return count;
}
