/**
 * The instruction scan over every third-party skill in ../shared/corpus: how many skills get a
 * danger or a caution finding. The figures are pinned (instructions.ts quotes them), so a rule
 * change that flags more of the world shows here first. `SKILLDECK_SCAN_DUMP=file.json` writes
 * every finding out for reading.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InstructionFinding } from '../../../shared/contract';
import { corpusDir } from '../../testing/fixtures';
import { readDangerLine, scanSkillInstructions } from './instructions';

const SKILL_FILE = /^skill\.md$/i;

function skillFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) skillFiles(full, out);
    else if (entry.isFile() && SKILL_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

describe('the instruction scan over the corpus', () => {
  it('flags few skills, danger fewest', () => {
    const root = path.join(corpusDir(), 'skills');
    const results: { skill: string; findings: InstructionFinding[] }[] = [];
    const files = skillFiles(root);
    for (const file of files) {
      const findings = scanSkillInstructions(path.dirname(file), [path.basename(file)]);
      if (findings.length) results.push({ skill: path.relative(root, path.dirname(file)), findings });
    }
    const withSeverity = (s: InstructionFinding['severity']) =>
      results.filter((r) => r.findings.some((f) => f.severity === s)).length;
    const dump = process.env.SKILLDECK_SCAN_DUMP;
    if (dump) fs.writeFileSync(dump, JSON.stringify(results, null, 1));
    expect({
      scanned: files.length,
      flagged: results.length,
      danger: withSeverity('danger'),
      caution: withSeverity('caution'),
      destructive: results.filter((r) => r.findings.some((f) => f.kind === 'destructive')).length,
    }).toEqual({ scanned: 3483, flagged: 116, danger: 27, caution: 98, destructive: 0 });
    // The list's and the router's quick check (whole-text patterns first) finds the same danger
    // lines as the full scan, in the same skills.
    const quick = files
      .map((file) => ({ file, line: readDangerLine(path.dirname(file), path.basename(file)) }))
      .filter((r) => r.line !== null)
      .map((r) => `${path.relative(root, path.dirname(r.file))}:${r.line!.line}`);
    const full = results
      .filter((r) => r.findings.some((f) => f.severity === 'danger'))
      .map((r) => `${r.skill}:${r.findings.find((f) => f.severity === 'danger')!.line}`);
    expect(quick).toEqual(full);
  });
});
