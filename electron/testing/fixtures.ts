import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine, type Engine } from '../engine';

/** A throwaway directory under the OS temp dir; never the real home (tests' standard). */
export function tempDir(prefix = 'skilldeck-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Write `files` (relative path → text) under `root`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
}

export const skillMd = (name: string, description: string, body = `# ${name}\n\nDo the thing.\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

/**
 * Engines whose every folder (SKILLDECK_HOME, user home, workspace) is inside a fresh temp
 * root; `cleanup()` (call it in `afterEach`) closes them and deletes their roots.
 */
export function isolatedEngines() {
  const roots: string[] = [];
  const engines: Engine[] = [];
  return {
    async open() {
      const root = tempDir();
      roots.push(root);
      const home = path.join(root, 'home');
      const workspace = path.join(root, 'ws');
      const engine = await createEngine({ home, userHome: path.join(root, 'user'), workspace });
      engines.push(engine);
      return { root, home, workspace, engine, managed: path.join(home, 'skills') };
    },
    async cleanup() {
      for (const engine of engines.splice(0)) await engine.close();
      for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
