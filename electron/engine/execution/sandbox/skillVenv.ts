import fs from 'node:fs';
import path from 'node:path';

/** Where a skill keeps its own Python environment (`python3 -m venv .venv`, `uv venv`). */
const VENV_DIRS = ['.venv', 'venv'];

const PYTHON_NAME = /^python\d*(\.\d+)?$/;

/**
 * The skill's own virtual environment: its python, as the skill folder names it (a venv finds
 * its packages from that path), and the real interpreter it links to. A venv's python is a link
 * to the one that made it, often under the home (pyenv, uv, conda), which the sandbox hides: the
 * interpreter's folders must be bound, or the venv cannot start ("No such file or directory").
 * Only a venv inside the skill folder counts, and only a link to a python.
 */
export function skillVenv(skillDir: string): { python: string; real: string } | null {
  let root: string;
  try {
    root = fs.realpathSync(skillDir);
  } catch {
    return null;
  }
  for (const name of VENV_DIRS) {
    const dir = path.join(skillDir, name);
    if (!fs.existsSync(path.join(dir, 'pyvenv.cfg'))) continue;
    for (const exe of ['python3', 'python']) {
      const python = path.join(dir, 'bin', exe);
      try {
        const real = fs.realpathSync(python);
        const realDir = fs.realpathSync(dir);
        if (!realDir.startsWith(`${root}${path.sep}`)) break;
        if (!PYTHON_NAME.test(path.basename(real))) continue;
        fs.accessSync(real, fs.constants.X_OK);
        return { python, real };
      } catch {
        // Not there, or not runnable.
      }
    }
  }
  return null;
}
