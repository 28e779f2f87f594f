import type { InstructionFinding } from '../../shared/contract';

/**
 * What a skill's instructions ask the agent to do, as the install preview and `skills show` print
 * it: a heading, then per finding its severity, place and reason over the line itself.
 */
export function findingLines(findings: readonly InstructionFinding[]): string[] {
  if (findings.length === 0) return [];
  return [
    '  Its instructions ask the agent to:',
    ...findings.flatMap((f) => [
      `  ${f.severity.toUpperCase()} ${f.file}:${f.line}: ${f.reason}`,
      `      ${f.excerpt}`,
    ]),
  ];
}
