/**
 * The skill system's loading side (DESIGN §2): discovery, lenient loading, the catalog,
 * and the strict reference validator.
 */
export { SkillCatalog, type SkillsDiff } from './catalog';
export { discoveryRoots, SCAN_LIMITS, type CatalogOptions } from './discovery';
export { FILE_LIMITS, readFileTree, readSkillFile, scriptLanguage } from './files';
export { interpretSkill, type InterpretedSkill, type SkillLocation, type SkillTexts } from './loadSkill';
export {
  ALLOWED_FIELDS,
  findSkillMd,
  parseFrontmatter,
  readProperties,
  SkillsRefError,
  toPrompt,
  validateMetadata,
  validateSkillDir,
  type SkillProperties,
} from './validator';
