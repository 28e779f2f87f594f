import fs from 'node:fs';
import path from 'node:path';
import type { GrantPath } from './policy';

// How the approval question words a run's command line and grants (DESIGN §4: "what exactly
// will happen").

/**
 * One argument as a shell would take it. Control characters and bidi overrides (from a model's
 * args or a skill's entrypoint line) go in bash's $'…' as escapes: raw, inside '…', a carriage
 * return or ESC sequence would redraw the approval question itself.
 */
export const quote = (arg: string): string => {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const unsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
  if (!unsafe.test(arg)) return `'${arg.replace(/'/g, `'\\''`)}'`;
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const body = arg
    .replace(/[\\']/g, (c) => `\\${c}`)
    .replace(unsafe, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `$'${body}'`;
};

/** Where a path leads once the links on its way are followed; the part not there yet is kept. */
function leadsTo(p: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return path.resolve(p);
      rest.push(path.basename(at));
    }
  }
}

/**
 * The grants as the question shows them: as declared, the path, and where a link on the way
 * leads, which is what the sandbox binds (`cache` → ~/Documents): a user approving a path must
 * see where the writes really go.
 */
export const shown = (grants: GrantPath[]): string[] =>
  grants.map((g) => {
    const line = g.declared === g.abs ? g.abs : `${g.declared} → ${g.abs}`;
    const target = leadsTo(g.abs);
    return target === path.resolve(g.abs) ? line : `${line}, through a link to ${target}`;
  });
