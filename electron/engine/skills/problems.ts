import type { Problem } from '../../../shared/contract';

/** Stable problem codes the loader emits (shown in the UI and `skills list --json`). */
export type ProblemCode =
  | 'file-unreadable'
  | 'not-utf8'
  | 'utf16'
  | 'bom'
  | 'no-frontmatter'
  | 'frontmatter-not-at-start'
  | 'leading-blank-lines'
  | 'frontmatter-unclosed'
  | 'merge-conflict'
  | 'yaml-invalid'
  | 'yaml-recovered'
  | 'yaml-duplicate-key'
  | 'frontmatter-not-mapping'
  | 'skill-file-name'
  | 'name-missing'
  | 'name-dir-mismatch'
  | 'name-too-long'
  | 'name-invalid'
  | 'description-missing'
  | 'description-too-long'
  | 'field-type'
  | 'sidecar-invalid'
  | 'shadowed'
  | 'duplicate-name'
  | 'os-unsupported'
  | 'scan-limit'
  | 'folder-unreadable';

/** Builds a problem; `line` is 1-based in the file the problem is about. */
export function problem(
  severity: Problem['severity'],
  code: ProblemCode,
  message: string,
  extra: { field?: string; line?: number } = {},
): Problem {
  const out: Problem = { severity, code, message };
  if (extra.field !== undefined) out.field = extra.field;
  if (extra.line !== undefined) out.line = extra.line;
  return out;
}

export const warning = (code: ProblemCode, message: string, extra?: { field?: string; line?: number }) =>
  problem('warning', code, message, extra);

export const error = (code: ProblemCode, message: string, extra?: { field?: string; line?: number }) =>
  problem('error', code, message, extra);

/** True when one of the problems is an error, which keeps a skill out of routing (DESIGN §2). */
export const hasError = (problems: readonly Problem[]) => problems.some((p) => p.severity === 'error');
