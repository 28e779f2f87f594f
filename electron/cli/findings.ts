import type { InstructionFinding } from '../../shared/contract';

/**
 * What a skill's instructions ask the agent to do (and its scripts would do), as the install
 * preview and `skills show` print it: a heading, then per finding its severity, place and reason
 * over the line itself.
 */
export function findingLines(findings: readonly InstructionFinding[]): string[] {
  if (findings.length === 0) return [];
  // A finding outside the Markdown is a script's line: it runs, nobody is asked.
  const scripts = findings.some((f) => !/\.md$/i.test(f.file));
  return [
    scripts ? '  What its instructions and scripts would do:' : '  Its instructions ask the agent to:',
    ...findings.flatMap((f) => [
      `  ${f.severity.toUpperCase()} ${f.file}:${f.line}: ${f.reason}`,
      `      ${f.excerpt}`,
    ]),
  ];
}
