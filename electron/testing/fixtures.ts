/** Test helpers: real files in throwaway folders under the OS temp dir (never the real home). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SkillSummary } from '../../shared/contract';
import type { Engine, EngineOptions } from '../engine';
import { SkillCatalog } from '../engine/skills/catalog';
import type { CatalogOptions } from '../engine/skills/discovery';

/** A fresh empty folder under os.tmpdir(). */
export function tempDir(prefix = 'skilldeck-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
}

/** A valid SKILL.md named `name`. */
export const skillMd = (name: string, description: string, body = `# ${name}\n\nDo the thing.\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

/** A SKILL.md with exactly the given frontmatter lines (for loader and validator cases). */
export const rawSkillMd = (frontmatter: string, body = '# Instructions\n\nDo the thing.\n') =>
  `---\n${frontmatter}\n---\n${body}`;

/** Catalog options pointing every default path into `base` (which need not contain them). */
export function isolatedOptions(base: string, overrides: Partial<CatalogOptions> = {}): CatalogOptions {
  return {
    home: path.join(base, 'home'),
    userHome: path.join(base, 'user'),
    workspace: path.join(base, 'workspace'),
    extraDirs: [],
    noDefaultPaths: false,
    platform: 'linux',
    ...overrides,
  };
}

/** A catalog over `dirs` only. */
export function catalogOf(dirs: string[], platform: NodeJS.Platform = 'linux'): Promise<SkillCatalog> {
  return SkillCatalog.open({
    home: '/nonexistent-home',
    userHome: '/nonexistent-user',
    workspace: '/nonexistent-ws',
    extraDirs: dirs,
    noDefaultPaths: true,
    platform,
  });
}

/** The skill a catalog lists for the folder `rel` under `root`; throws when it is not listed. */
export function listedSkill(catalog: SkillCatalog, root: string, rel: string): SkillSummary {
  const skill = catalog.list().skills.find((s) => s.id === path.join(root, rel));
  if (!skill) throw new Error(`skill ${rel} not listed`);
  return skill;
}

/**
 * The shared third-party corpus, `../shared/corpus` beside the repo (DESIGN §8), or
 * `$SKILLDECK_CORPUS` (mutation testing runs from a copy of the repo). Fails loudly when it
 * is missing: these tests must not pass by skipping.
 */
export function corpusDir(): string {
  const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
  const dir = process.env.SKILLDECK_CORPUS || path.resolve(repoRoot, '../shared/corpus');
  if (!fs.existsSync(path.join(dir, 'INDEX.tsv'))) {
    throw new Error(
      `The skill corpus is missing: expected ${dir}/INDEX.tsv (shared/ must sit beside the clone).`,
    );
  }
  return dir;
}

/** This process's environment without model configuration: a developer's OPENAI_* must not reach tests. */
export const envWithoutModel = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !/^(OPENAI_|ANTHROPIC_|SKILLDECK_MODEL|SKILLDECK_EMBEDDING)/.test(name),
    ),
  );

/**
 * Engines whose every folder (SKILLDECK_HOME, user home, workspace) is inside a fresh temp
 * root; `cleanup()` (call it in `afterEach`) closes them and deletes their roots.
 */
export function isolatedEngines() {
  const roots: string[] = [];
  const engines: Engine[] = [];
  return {
    async open(extra: Partial<EngineOptions> = {}) {
      const root = tempDir();
      roots.push(root);
      const home = path.join(root, 'home');
      const workspace = path.join(root, 'ws');
      // Imported here, not at the top: the skills tests use this file without the whole engine.
      const { createEngine } = await import('../engine');
      const engine = await createEngine({
        home,
        userHome: path.join(root, 'user'),
        workspace,
        env: envWithoutModel(),
        // The tests of other features run skills from the workspace as the user's own project, as
        // the CLI does; the trust tests pass false to open it as an untrusted folder.
        trustWorkspace: true,
        ...extra,
      });
      engines.push(engine);
      return { root, home, workspace, engine, managed: path.join(home, 'skills') };
    },
    async cleanup() {
      for (const engine of engines.splice(0)) await engine.close();
      for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
