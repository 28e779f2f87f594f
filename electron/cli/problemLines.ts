import { FRONTMATTER_FIX_CODES, type Problem } from '../../shared/contract';

/**
 * A skill's load problems as the CLI prints them, and, when its frontmatter is what keeps it
 * from loading, the command that shows the edit which makes it load (what-users-ask #4, #5:
 * installed but never routed should say why and what to do).
 */
export function problemLines(problems: Problem[], name: string): string[] {
  const lines = problems.map((p) => `  ${p.severity}: ${p.message}`);
  if (problems.some((p) => p.severity === 'error' && FRONTMATTER_FIX_CODES.includes(p.code)))
    lines.push(
      `  It is listed but never routed until this is fixed: skilldeck skills fix ${name} shows the edit that makes it load.`,
    );
  return lines;
}
