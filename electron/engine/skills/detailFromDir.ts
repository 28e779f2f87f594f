import fs from 'node:fs';
import path from 'node:path';
import type { SkillDetail, SkillSource } from '../../../shared/contract';
import { notFound } from '../errors';
import { toSummary } from './catalog';
import { completeDetail } from './detail';
import { interpretSkill, readSkillTexts, type SkillLocation } from './loadSkill';
import { findSkillMd } from './validator';

/**
 * The full detail of a skill folder that is not in the catalog — a repair's scratch copy,
 * replayed before the user sees the patch (DESIGN §5) — read the way the catalog reads one.
 */
export async function readSkillDetail(dir: string, source: SkillSource = 'extra'): Promise<SkillDetail> {
  const abs = path.resolve(dir);
  const file = await findSkillMd(abs);
  if (!file) throw notFound(`${abs} has no SKILL.md.`);
  const names = new Set(fs.readdirSync(abs));
  const location: SkillLocation = {
    dir: abs,
    fileName: path.basename(file),
    root: path.dirname(abs),
    source,
    skillYaml: names.has('skill.yaml') ? 'skill.yaml' : names.has('skill.yml') ? 'skill.yml' : undefined,
    hasAgentsDir: names.has('agents'),
    hasScriptsDir: names.has('scripts'),
  };
  const interpreted = interpretSkill(location, await readSkillTexts(location), process.platform);
  const summary = toSummary(location, interpreted, { shadows: [], problems: [] });
  return completeDetail(summary, interpreted, location.fileName);
}
