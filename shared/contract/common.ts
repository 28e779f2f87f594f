import { z } from 'zod';

/** One diagnostic about a skill: what is wrong and how to fix it. */
export const Problem = z.object({
  severity: z.enum(['error', 'warning']),
  /** Stable machine-readable code, e.g. `yaml-invalid`, `name-dir-mismatch`. */
  code: z.string(),
  /** What is wrong, and how to fix it, in one or two sentences. */
  message: z.string(),
  /** The frontmatter field or file the problem is about, when there is one. */
  field: z.string().optional(),
  /** 1-based line in SKILL.md, when known. */
  line: z.number().int().optional(),
});
export type Problem = z.infer<typeof Problem>;

/** The structured error every failed request resolves to. */
export const RpcError = z.object({
  code: z.enum([
    'unknown_method',
    'invalid_params',
    'invalid_message',
    'not_found',
    'forbidden',
    'internal',
    'unavailable',
  ]),
  message: z.string(),
  /** Field-level details for `invalid_params`. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type RpcError = z.infer<typeof RpcError>;

export const Empty = z.object({}).strict();
