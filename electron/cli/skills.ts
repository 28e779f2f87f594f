import fs from 'node:fs';
import path from 'node:path';
import {
  FRONTMATTER_FIX_CODES,
  type InstructionFinding,
  type SkillDetail,
  type SkillSummary,
  type ValidationReport,
} from '../../shared/contract';
import { SkillCatalog, validateSkillDir } from '../engine';
import { flaggedClause } from '../engine/routing/held';
import { openEngine, withSkill, type DiscoveryFlags } from './context';
import { findingLines } from './findings';
import { problemLines } from './problemLines';
import { forTerminal, oneLine } from './terminal';

const pad = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

/** The line under a flagged skill's row: where its SKILL.md asks for harm, and what the router does about it. */
function flaggedLine(skill: SkillSummary, finding: InstructionFinding): string {
  // A shadowed skill is never routed, and `$name` runs the skill that hides it.
  const forced = skill.shadowedBy ? '' : ` ($${skill.name} still runs it)`;
  const hold =
    skill.autoSelect === false
      ? `held back from automatic selection${forced}`
      : 'allowed to be picked automatically';
  return `    ! flagged: ${flaggedClause(finding)}; ${hold}`;
}

/** `skills list`: every skill found, with source, type, problem counts and a flagged SKILL.md line. */
export async function skillsList(flags: DiscoveryFlags & { json: boolean }): Promise<number> {
  const engine = await openEngine(flags);
  // The app marks flagged skills once a background read gets to them; a one-shot list reads them
  // all first (firstDanger's whole-text prefilter skips nearly every file without a line scan).
  await engine.skills.readFlags();
  const { skills, folders } = engine.listSkills();
  if (flags.json) {
    // `flagged` on every skill: null, or the engine's finding (file, line, excerpt, reason).
    const listed = skills.map((skill) => ({ ...skill, flagged: skill.flagged ?? null }));
    process.stdout.write(`${JSON.stringify(listed)}\n`);
    return 0;
  }
  const rows = skills.map((skill: SkillSummary) => {
    const errors = skill.problems.filter((p) => p.severity === 'error').length;
    const warnings = skill.problems.length - errors;
    const status = errors ? `${errors} error(s)` : warnings ? `${warnings} warning(s)` : 'ok';
    // A name from a third-party SKILL.md may hold escape sequences: shown, not acted on.
    const row = `${pad(oneLine(skill.name), 32)} ${pad(skill.source, 10)} ${pad(skill.type, 12)} ${status}${skill.shadowedBy ? '  (shadowed)' : ''}`;
    return skill.flagged ? `${row}  FLAGGED\n${oneLine(flaggedLine(skill, skill.flagged))}` : row;
  });
  process.stdout.write(
    `${pad('NAME', 32)} ${pad('SOURCE', 10)} ${pad('TYPE', 12)} PROBLEMS\n${rows.join('\n')}\n`,
  );
  const withProblems = skills.filter((s) => s.problems.length > 0).length;
  const flagged = skills.filter((s) => s.flagged).length;
  process.stdout.write(
    `\n${skills.length} skills, ${withProblems} with problems, ${flagged} flagged. Searched:\n`,
  );
  for (const folder of folders) {
    process.stdout.write(
      `  ${folder.exists ? '✓' : '✗'} ${oneLine(folder.path)} (${folder.source}, ${folder.skillCount})\n`,
    );
  }
  return 0;
}

/** `skills validate PATH`: the strict reference rules, for one skill or every skill under PATH. */
export async function skillsValidate(target: string | undefined, flags: { json: boolean }): Promise<number> {
  if (!target) {
    process.stderr.write('usage: skilldeck skills validate PATH [--json]\n');
    return 2;
  }
  const dir = path.resolve(target);
  const isSkill =
    !fs.existsSync(dir) ||
    !fs.statSync(dir).isDirectory() ||
    fs.readdirSync(dir).some((entry) => entry.toLowerCase() === 'skill.md');
  let reports: (ValidationReport & { path: string })[];
  if (isSkill) {
    reports = [{ path: dir, ...(await validateSkillDir(dir)) }];
  } else {
    const options = { home: dir, userHome: dir, workspace: dir, extraDirs: [dir], noDefaultPaths: true };
    const catalog = await SkillCatalog.open(options);
    const skills = catalog.list().skills;
    reports = await Promise.all(
      skills.map(async (s) => ({ path: s.path, ...(await validateSkillDir(s.path)) })),
    );
    if (reports.length === 0) reports = [{ path: dir, ...(await validateSkillDir(dir)) }];
  }
  const invalid = reports.filter((r) => !r.valid).length;
  if (flags.json) {
    // One report on the path itself (a skill, or a folder holding none) is that report, as the
    // reference validator prints it; a folder of skills is a list.
    const single = reports.length === 1 && (isSkill || reports[0].path === dir);
    process.stdout.write(`${JSON.stringify(single ? reports[0] : reports)}\n`);
  } else {
    for (const report of reports) {
      process.stdout.write(`${report.valid ? '✓' : '✗'} ${oneLine(report.path)}\n`);
      for (const error of report.errors) process.stdout.write(`    ${oneLine(error)}\n`);
    }
    if (reports.length > 1) process.stdout.write(`\n${reports.length - invalid} valid, ${invalid} invalid\n`);
  }
  return invalid > 0 ? 1 : 0;
}

function describeDetail(d: SkillDetail): string {
  const files = d.files.filter((f) => f.kind === 'file').length;
  const lines = [
    `${d.name}${d.version ? ` ${d.version}` : ''} — ${d.description || '(no description)'}`,
    `  ${d.path}`,
    `  ${d.source}, ${d.type}, ${d.routable ? 'routable' : 'not routable'}${d.shadowedBy ? `, hidden by ${d.shadowedBy}` : ''}`,
    `  ${files} file${files === 1 ? '' : 's'}; content hash ${d.contentHash.slice(0, 12)}`,
    // Read first, as in the detail view: a skill from a shared folder never passed the install preview.
    ...findingLines(d.instructions),
    ...problemLines(d.problems, d.name),
  ];
  return forTerminal(`${lines.join('\n')}\n`);
}

/** `skills show NAME`: one skill's detail, with what its instructions ask the agent to do. */
export async function skillsShow(
  skill: string | undefined,
  flags: DiscoveryFlags & { json: boolean },
): Promise<number> {
  if (!skill) {
    process.stderr.write('usage: skilldeck skills show NAME [--skills DIR]… [--no-default-paths] [--json]\n');
    return 2;
  }
  return withSkill(flags, skill, async (engine, match) => {
    const detail = await engine.skills.get(match.id);
    process.stdout.write(flags.json ? `${JSON.stringify(detail)}\n` : describeDetail(detail));
    return 0;
  });
}

/**
 * `skills fix NAME`: the edit that makes a skill's SKILL.md load (what `skills show` says is
 * wrong with its frontmatter), shown as a diff; `--apply` writes it as a repair revision, whose
 * originals stay under `$SKILLDECK_HOME/repairs/` and which the app's history can undo.
 */
export async function skillsFix(
  skill: string | undefined,
  flags: DiscoveryFlags & { json: boolean; apply: boolean },
): Promise<number> {
  if (!skill) {
    process.stderr.write(
      'usage: skilldeck skills fix NAME [--apply] [--skills DIR]… [--no-default-paths] [--json]\n',
    );
    return 2;
  }
  return withSkill(flags, skill, async (engine, match) => {
    const out = (doc: object, text: string) =>
      process.stdout.write(flags.json ? `${JSON.stringify(doc)}\n` : `${text}\n`);
    if (!match.problems.some((p) => p.severity === 'error' && FRONTMATTER_FIX_CODES.includes(p.code))) {
      const errors = match.problems.filter((p) => p.severity === 'error').map((p) => p.message);
      const text = errors.length
        ? `${match.name}: nothing here can be fixed mechanically:\n${errors.map((e) => `  ${e}`).join('\n')}`
        : `${match.name}: its frontmatter loads; nothing to fix.`;
      out({ skill: match.name, path: match.path, fixed: false, errors, proposal: null }, text);
      return errors.length ? 1 : 0;
    }
    let proposal;
    try {
      proposal = await engine.repair.fixFrontmatter(match.id, flags.apply);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      out({ skill: match.name, path: match.path, fixed: false, errors: [message], proposal: null }, message);
      return 1;
    }
    let revision = null;
    try {
      if (flags.apply) revision = await engine.repair.apply(proposal.id);
    } catch (error) {
      const message = `Not applied: ${error instanceof Error ? error.message : String(error)}`;
      out({ skill: match.name, path: match.path, fixed: false, errors: [message], proposal }, message);
      return 1;
    }
    const doc = { skill: proposal.skill, path: match.path, fixed: !!revision, proposal, revision };
    const next = revision
      ? `Applied as revision ${revision.revision}; the original is kept under $SKILLDECK_HOME/repairs/. \`skilldeck skills undo ${revision.revision}\` takes it back.`
      : 'Nothing was written: run again with --apply to write it.';
    out(
      doc,
      [
        `${match.name}: ${proposal.root_cause}`,
        `Fix: ${proposal.expected_effect}`,
        '',
        proposal.diff.trimEnd(),
        '',
        proposal.replay.summary,
        next,
      ].join('\n'),
    );
    return 0;
  });
}
