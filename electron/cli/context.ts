import fs from 'node:fs';
import path from 'node:path';
import { createEngine, type Engine } from '../engine';

/** Where the CLI bundle lives (`dist/node/`), so it can find `skills/` and `dist/renderer/`. */
export const appRoot = (): string => {
  const candidates = [path.resolve(__dirname, '../..'), path.resolve(__dirname, '..'), process.cwd()];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'package.json'))) ?? candidates[0];
};

export interface DiscoveryFlags {
  skills: string[];
  'no-default-paths': boolean;
}

export function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(appRoot(), 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

/** The engine over the user's folders; `watch` only for long-running commands (`serve`). */
export function openEngine(flags: DiscoveryFlags, watch = false): Promise<Engine> {
  const bundledDir = path.join(appRoot(), 'skills');
  return createEngine({
    bundledDir: fs.existsSync(bundledDir) ? bundledDir : undefined,
    skillDirs: flags.skills,
    noDefaultPaths: flags['no-default-paths'],
    version: readVersion(),
    watch,
  });
}
