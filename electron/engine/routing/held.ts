import path from 'node:path';
import type { InstructionFinding } from '../../../shared/contract';
import { readDangerLine } from '../install/instructions';
import type { SkillDoc } from './skillDoc';

/** Where a skill's flagged line is and what it asks, as a clause: "SKILL.md line 12 runs a downloaded …". */
export function flaggedClause(finding: InstructionFinding): string {
  const what = finding.reason.replace(/\.$/, '');
  return `${finding.file} line ${finding.line} ${what.charAt(0).toLowerCase()}${what.slice(1)}`;
}

/**
 * The router's hold (RouterConfig.heldBack) on skills whose SKILL.md asks the agent for a harmful
 * act (what-users-ask §7: a skill copied into a shared folder never passed the install preview).
 * Such a skill is not picked on its own, however well it matches, unless the user allowed it by
 * name; `$name` still runs it. `flagged` reads the line lazily (SkillCatalog.flagged).
 */
export function flaggedHold(
  flagged: (doc: SkillDoc) => InstructionFinding | null,
  allowed: ReadonlySet<string> = new Set(),
): (doc: SkillDoc) => string | null {
  return (doc) => {
    if (allowed.has(doc.name)) return null;
    const finding = flagged(doc);
    return finding ? flaggedClause(finding) : null;
  };
}

/**
 * Each skill's flagged line read from its SKILL.md once, for an index without a catalog behind it
 * (the quality evals, which route the way the product does).
 */
export function flaggedOnDisk(): (doc: SkillDoc) => InstructionFinding | null {
  const read = new Map<string, InstructionFinding | null>();
  return (doc) => {
    let finding = read.get(doc.id);
    if (finding === undefined) {
      finding = readDangerLine(path.dirname(doc.summary.file), path.basename(doc.summary.file));
      read.set(doc.id, finding);
    }
    return finding;
  };
}
