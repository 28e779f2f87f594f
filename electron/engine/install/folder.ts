import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { Progress } from './archive';
import {
  Budget,
  INSTALL_LIMITS,
  isInside,
  refused,
  removeTree,
  testDelay,
  type InstallLimits,
} from './limits';

/** Never copied: VCS data and dependency folders (the loader skips them too). */
const SKIP = new Set(['.git', 'node_modules']);

/**
 * Copies a folder into `target` (which must not exist yet) with the same rules as an
 * archive: symlinks may only point inside the copied folder (they are recreated as links),
 * devices, FIFOs and sockets are refused, and the caps hold while bytes are copied.
 * On any refusal `target` is removed.
 */
export async function copyFolder(
  source: string,
  target: string,
  onProgress: Progress = () => undefined,
  limits: InstallLimits = INSTALL_LIMITS,
): Promise<void> {
  // Stryker disable next-line ArrowFunction: undefined is as missing as null here
  const realSource = await fsp.realpath(source).catch(() => null);
  if (!realSource || !(await fsp.stat(realSource)).isDirectory())
    throw refused(`${source} is not a readable folder.`);
  const budget = new Budget(limits);
  // Not recursive: an existing target fails here, before anything is written into it.
  await fsp.mkdir(target);
  try {
    await walk(realSource, realSource, target, '', budget, onProgress);
  } catch (error) {
    await removeTree(target);
    throw error;
  }
}

async function walk(
  root: string,
  dir: string,
  target: string,
  rel: string,
  budget: Budget,
  onProgress: Progress,
): Promise<void> {
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    const from = path.join(dir, entry.name);
    const to = path.join(target, entry.name);
    const st = await fsp.lstat(from);
    if (st.isSymbolicLink()) {
      const link = await fsp.readlink(from);
      const resolved = path.resolve(path.dirname(from), link);
      const real = await fsp.realpath(from).catch(() => resolved);
      // The link is copied as written, under another folder name: it must stay inside the skill
      // read from where it will be, so no climbing out and back in by the source folder's name
      // (`../code-review/SKILL.md` from a folder named code-review) and no `..` collapsing at /.
      const within = path.posix.normalize(
        path.posix.join(path.posix.dirname(relPath), link.replace(/\\/g, '/')),
      );
      if (
        path.isAbsolute(link) ||
        within === '..' ||
        within.startsWith('../') ||
        !isInside(root, resolved) ||
        !isInside(root, real)
      )
        throw refused(
          `${JSON.stringify(relPath)} is a symbolic link to ${JSON.stringify(link)}, outside the skill.`,
        );
      budget.addFile(relPath, 0);
      await fsp.symlink(link, to);
    } else if (st.isDirectory()) {
      await fsp.mkdir(to);
      await walk(root, from, to, relPath, budget, onProgress);
    } else if (st.isFile()) {
      budget.addFile(relPath, st.size);
      await copyFile(from, to, st.mode, relPath, budget);
      onProgress(budget.files, 0, relPath);
      await testDelay();
    } else {
      throw refused(`${JSON.stringify(relPath)} is a device, FIFO or socket, not a regular file.`);
    }
  }
}

async function copyFile(
  from: string,
  to: string,
  mode: number,
  relPath: string,
  budget: Budget,
): Promise<void> {
  let fileBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      fileBytes += chunk.length;
      try {
        budget.addBytes(relPath, chunk.length, fileBytes);
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback(null, chunk);
    },
  });
  // The size is measured while copying: a file that grows after lstat still meets the cap.
  await pipeline(
    fs.createReadStream(from),
    meter,
    fs.createWriteStream(to, { flags: 'wx', mode: mode & 0o755 }),
  );
}
