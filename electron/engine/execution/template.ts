/** Values a direct skill's body may use (DESIGN §2: `{{input.x}}`, `{{input.nested.x}}`, `{{system.*}}`). */
export interface TemplateValues {
  input: Record<string, unknown>;
  system: { cwd: string; timestamp: string };
}

const PLACEHOLDER = /\{\{\s*(input|system)((?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;

function lookup(root: unknown, keys: string[]): unknown {
  let value = root;
  for (const key of keys) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const show = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);

/**
 * Fill a direct skill's body (seed 004 §7.2). A placeholder with no value becomes the
 * field's name in italics (`_title_`), so the result is still a ready-to-fill document,
 * and is reported in `missing`.
 */
export function fillTemplate(body: string, values: TemplateValues): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = body.replace(PLACEHOLDER, (_match, scope: 'input' | 'system', dotted: string) => {
    const keys = dotted.slice(1).split('.');
    const value = lookup(values[scope], keys);
    if (value === undefined || value === null || value === '') {
      missing.push(`${scope}${dotted}`);
      return `_${keys[keys.length - 1]}_`;
    }
    return show(value);
  });
  return { text, missing: [...new Set(missing)] };
}
