import path from 'node:path';
import type { FileChange } from './diffs';
import type { DraftProposal, FixContext } from './fixers';

/** Minimum name similarity for a file to count as "the one that was meant". */
const MIN_SIMILARITY = 0.5;
/** The best match must beat the runner-up by this much, or the fix is ambiguous. */
const MIN_MARGIN = 0.1;

const stem = (p: string) =>
  path.posix
    .basename(p)
    .replace(/\.[^.]+$/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) ?? 0) + 1);
  return m;
}

/**
 * Name similarity in [0, 1]: the Sørensen–Dice coefficient over character bigrams of the
 * file names (folder and extension aside), raised to 0.8 when one name contains the other
 * (`foo` → `foo-guide`), with small bonuses for the same folder and the same extension.
 */
export function pathSimilarity(a: string, b: string): number {
  const x = stem(a);
  const y = stem(b);
  if (!x || !y) return 0;
  let dice = x === y ? 1 : 0;
  if (x !== y) {
    const bx = bigrams(x);
    const by = bigrams(y);
    let common = 0;
    for (const [g, n] of bx) common += Math.min(n, by.get(g) ?? 0);
    const total = Math.max(1, x.length - 1 + (y.length - 1));
    dice = (2 * common) / total;
    if (Math.min(x.length, y.length) >= 3 && (x.includes(y) || y.includes(x))) dice = Math.max(dice, 0.8);
  }
  const sameDir = path.posix.dirname(a) === path.posix.dirname(b) ? 0.05 : 0;
  const sameExt = path.posix.extname(a) === path.posix.extname(b) ? 0.05 : 0;
  return Math.min(1, dice * 0.9 + sameDir + sameExt);
}

/** The existing file most likely meant by a missing path, or null when none is close or it is a tie. */
export function closestFile(missing: string, listing: string[]): string | null {
  const top = missing.split('/')[0];
  const pool = listing.filter((f) => f.split('/')[0] === top && f !== missing);
  const scored = pool.map((f) => ({ f, s: pathSimilarity(missing, f) })).sort((p, q) => q.s - p.s);
  const [best, second] = scored;
  if (!best || best.s < MIN_SIMILARITY) return null;
  if (second && best.s - second.s < MIN_MARGIN) return null;
  return best.f;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fixer (a): the skill refers to a file that does not exist while a close match does
 * (a renamed `references/foo.md` → `references/foo-guide.md`): every mention in SKILL.md,
 * scripts and references is pointed at the existing file.
 */
export function fixReferencePath(ctx: FixContext): DraftProposal | null {
  const { skill, evidence } = ctx;
  const renames: { from: string; to: string }[] = [];
  for (const missing of evidence.missingPaths) {
    const to = closestFile(missing, skill.listing);
    if (to) renames.push({ from: missing, to });
  }
  if (renames.length === 0) return null;
  const changes: FileChange[] = [];
  for (const [file, text] of skill.texts) {
    let after = text;
    for (const r of renames) {
      // Whole path only: `references/foo.md` must not match inside `references/foo.mdx`.
      after = after.replace(new RegExp(`(?<![\\w.-])${escape(r.from)}(?![\\w-]|\\.\\w)`, 'g'), r.to);
    }
    if (after !== text) changes.push({ path: file, before: text, after });
  }
  if (changes.length === 0) return null;
  const list = renames.map((r) => `${r.from} → ${r.to}`).join(', ');
  return {
    source: 'fixer',
    fixer: 'reference-path',
    error_signature: ctx.eligibility.error_signature,
    root_cause: `The skill refers to ${renames.map((r) => r.from).join(', ')}, which does not exist; the file is now ${renames.map((r) => r.to).join(', ')}.`,
    expected_effect: `The skill reads the existing file (${list}) and the run gets past that step.`,
    changes,
    expect: { kind: 'pass' },
  };
}
