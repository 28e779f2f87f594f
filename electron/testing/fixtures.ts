import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
