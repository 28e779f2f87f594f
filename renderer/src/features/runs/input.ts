import type { SkillDetail } from '../../../../shared/contract';

export interface EntrypointOption {
  /** What `run.start` gets as `entrypoint`: the declared name, or the script's path. */
  value: string;
  label: string;
  description?: string;
}

/**
 * What the Run form offers (DESIGN §4 script runner): the declared entrypoints, else the
 * runnable files in `scripts/`. Non-script skills have none.
 */
export function entrypointOptions(
  detail: Pick<SkillDetail, 'type' | 'metadata' | 'files'>,
): EntrypointOption[] {
  if (detail.type !== 'script') return [];
  const declared = detail.metadata.entrypoints;
  if (declared.length > 0)
    return declared.map((e) => ({
      value: e.name,
      label: e.name === e.path ? e.path : `${e.name} — ${e.path}`,
      description: e.description,
    }));
  return detail.files
    .filter((f) => f.kind === 'file' && f.path.startsWith('scripts/') && (f.scriptLanguage || f.executable))
    .map((f) => ({ value: f.path, label: f.path, description: f.scriptLanguage }));
}

/** Skills whose runs take `INPUT_JSON` fields (scripts) or `{{input.x}}` fields (direct templates). */
export const takesInput = (type: SkillDetail['type']): boolean => type === 'script' || type === 'direct';

export type ParsedInput = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** The JSON editor's text → the `input` of `run.start`, validated before anything is sent. */
export function parseInput(text: string): ParsedInput {
  if (!text.trim()) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'The input must be a JSON object, such as {"content": "…"}.' };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The first ```json block of the body that is a JSON object: skills document `INPUT_JSON` that way. */
export function documentedExample(body: string): string | null {
  for (const match of body.matchAll(/```json[^\n]*\n([\s\S]*?)```/g)) {
    const parsed = parseInput(match[1]);
    if (parsed.ok && Object.keys(parsed.value).length > 0) return JSON.stringify(parsed.value, null, 2);
  }
  return null;
}

/** `{{input.title}}`, `{{input.meta.location}}` → `{ "title": "", "meta": { "location": "" } }`. */
export function templateSkeleton(body: string): string | null {
  const root: Record<string, unknown> = {};
  for (const match of body.matchAll(/\{\{\s*input\.([\w.-]+)\s*\}\}/g)) {
    const keys = match[1].split('.').filter(Boolean);
    let node = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        if (!(key in node)) node[key] = '';
        return;
      }
      const child = node[key];
      if (child === null || typeof child !== 'object') node[key] = {};
      node = node[key] as Record<string, unknown>;
    });
  }
  // `task` is always sent from the task field; a template that only reads it needs no editor.
  delete root.task;
  return Object.keys(root).length ? JSON.stringify(root, null, 2) : null;
}

/** What the "example" button fills in: a template's fields, or the documented INPUT_JSON example. */
export function inputExample(detail: Pick<SkillDetail, 'type' | 'body'>): string | null {
  if (detail.type === 'direct') return templateSkeleton(detail.body);
  if (detail.type === 'script') return documentedExample(detail.body);
  return null;
}
