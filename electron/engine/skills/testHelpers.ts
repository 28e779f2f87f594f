/** Test helpers: real files in throwaway folders under the OS temp dir (never the real home). */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SkillCatalog } from './catalog';
import type { CatalogOptions } from './discovery';

/** A fresh empty folder under os.tmpdir(). */
export function tempDir(prefix = 'skilldeck-skills-'): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, content);
  }
}

/** A SKILL.md with the given frontmatter lines. */
export const skillMd = (frontmatter: string, body = '# Instructions\n\nDo the thing.\n') =>
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

/**
 * The shared third-party corpus, `../shared/corpus` beside the repo (DESIGN §8). Fails
 * loudly when it is missing: these tests must not pass by skipping.
 */
export function corpusDir(): string {
  const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
  const dir = path.resolve(repoRoot, '../shared/corpus');
  if (!fs.existsSync(path.join(dir, 'INDEX.tsv'))) {
    throw new Error(
      `The skill corpus is missing: expected ${dir}/INDEX.tsv (shared/ must sit beside the clone).`,
    );
  }
  return dir;
}
