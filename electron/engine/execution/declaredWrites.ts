import path from 'node:path';
import type { RunFile, Violation } from '../../../shared/contract';
import type { GrantPath } from './policy';
import { writtenIn } from './workdir';

const escape = (s: string) => s.replace(/[.+^$()|\\/\]]/g, '\\$&');

/** A glob (`*.md`, `*.{txt,md}` below `**`, `data-[0-9]?.csv`) as the source of a RegExp over `/`-separated paths. */
function globSource(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      // `**/`: any folders, none too; a last `**`: anything.
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{' && glob.indexOf('}', i) > i) {
      const end = glob.indexOf('}', i);
      re += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map(globSource)
        .join('|')})`;
      i = end;
    } else if (c === '[' && glob.indexOf(']', i + 2) > i) {
      const end = glob.indexOf(']', i + 2);
      re += `[${glob
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/[\\\]]/g, '\\$&')}]`;
      i = end;
    } else re += escape(c);
  }
  return re;
}

/** A placeholder a declared path starts with (`{workspace}`, `$WORKSPACE`, `~`): no wildcard. */
const PLACEHOLDER = /^(\{\w+\}|\$\{?\w+\}?|~)$/;

/**
 * The part of a declared path from its first wildcard on, as a RegExp over paths relative to the
 * folder before it (`{workspace}/*.md` → /^[^/]*\.md$/), or null where it names all below that
 * folder (no wildcard, or `**`).
 */
export function declaredTail(declared: string): RegExp | null {
  const parts = declared.trim().replace(/\\/g, '/').split('/');
  const cut = parts.findIndex((p, i) => /[*?[{]/.test(p) && !(i === 0 && PLACEHOLDER.test(p)));
  if (cut === -1) return null;
  const tail = parts.slice(cut).join('/');
  return tail === '**' ? null : new RegExp(`^${globSource(tail)}$`);
}

const inside = (file: string, dir: string) => file === dir || file.startsWith(`${dir}${path.sep}`);

/**
 * Whether a declared write path names `file`: it lies in the folder the path starts in, and it
 * or a folder on its way matches the rest (`out/*` names out/sub/x.txt through out/sub).
 */
export function names(g: GrantPath, file: string): boolean {
  if (!inside(file, g.abs)) return false;
  const tail = declaredTail(g.declared);
  if (!tail) return true;
  const parts = path.relative(g.abs, file).split(path.sep);
  return parts.some((_, i) => tail.test(parts.slice(0, i + 1).join('/')));
}

/**
 * What a script wrote in its write folders outside the run's own (workdir.ts writtenIn), and a
 * violation for each file its declared paths do not name: bwrap binds a folder, so a path
 * declared as `{workspace}/*.md` is held only to the folder its pattern starts in, and a write
 * beside it (evil.py) goes through. Said after the fact, since it could not be stopped.
 */
export function writtenElsewhere(
  grants: GrantPath[],
  since: number,
  hidden: string[],
): { files: RunFile[]; violations: Violation[] } {
  const files = writtenIn(
    grants.map((g) => g.abs),
    since,
    hidden,
  );
  const violations = files
    .filter((f) => !grants.some((g) => names(g, f.abs)))
    .map((f): Violation => {
      const around = grants.filter((g) => inside(f.abs, g.abs));
      return {
        kind: 'write',
        target: f.abs,
        message: `wrote ${f.abs}, which its write paths ${around.map((g) => g.declared).join(', ')} do not name: the sandbox holds a path with a pattern to the folder it starts in (${around[0]?.abs})`,
        grantable: false,
      };
    });
  return { files, violations };
}
