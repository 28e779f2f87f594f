import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { EngineError } from '../errors';
import { Budget, INSTALL_LIMITS, refused, safeEntryPath, testDelay, type InstallLimits } from './limits';

export type Progress = (done: number, total: number, message: string) => void;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** The Unix file type a zip entry declares (0 when made on a system that does not say). */
function unixMode(entry: yauzl.Entry): number {
  const madeBy = entry.versionMadeBy >> 8;
  // 3 = Unix, 19 = macOS: only those put st_mode in the high 16 bits.
  return madeBy === 3 || madeBy === 19 ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
}

function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileNameRaw;
  const extra = yauzl.parseExtraFields(entry.extraFieldRaw);
  // strictFileNames: a backslash stays a backslash, so safeEntryPath can refuse it by name.
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, extra, true);
}

/**
 * Reads the central directory only (nothing inflated, nothing written) and refuses an
 * archive whose declared file count or sizes already pass the caps. The streaming checks
 * still run during extraction, for archives whose headers lie.
 */
async function precheck(archive: string, limits: InstallLimits): Promise<void> {
  const zip = await yauzl.openPromise(archive, { decodeStrings: false });
  const budget = new Budget(limits);
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entryName(entry);
      if (name.endsWith('/')) continue;
      budget.addFile(name, entry.uncompressedSize);
      budget.addBytes(name, entry.uncompressedSize, entry.uncompressedSize);
    }
  } finally {
    zip.close();
  }
}

/**
 * Extracts a `.zip` / `.skill` archive into `target` (which must not exist yet), streaming:
 * every entry path is checked before anything is written, symlinks and special files are
 * refused, and the caps are enforced on the bytes as they are inflated, so a zip bomb
 * stops at the cap rather than after extraction. On any refusal `target` is removed.
 */
export async function extractArchive(
  archive: string,
  target: string,
  onProgress: Progress = () => undefined,
  limits: InstallLimits = INSTALL_LIMITS,
): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(archive, { decodeStrings: false, validateEntrySizes: true });
  } catch (error) {
    throw refused(`${path.basename(archive)} is not a readable zip archive (${(error as Error).message}).`);
  }
  try {
    await precheck(archive, limits);
  } catch (error) {
    zip.close();
    throw error instanceof EngineError
      ? error
      : refused(`${path.basename(archive)} could not be read: ${(error as Error).message}`);
  }
  await fsp.mkdir(target, { recursive: false });
  const budget = new Budget(limits);
  const total = zip.entryCount;
  let done = 0;
  let current = '';
  try {
    if (total > limits.maxFiles * 2)
      throw refused(`the archive holds ${total} entries; at most ${limits.maxFiles} files are allowed.`);
    for await (const entry of zip.eachEntry()) {
      const name = entryName(entry);
      current = name;
      const rel = safeEntryPath(name);
      const mode = unixMode(entry);
      const type = mode & S_IFMT;
      const isDir = name.endsWith('/') || type === S_IFDIR;
      if (type === S_IFLNK)
        throw refused(`entry ${JSON.stringify(name)} is a symbolic link; archives may not contain links.`);
      if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
        throw refused(`entry ${JSON.stringify(name)} is a device, FIFO or socket, not a regular file.`);
      if (entry.isEncrypted()) throw refused(`entry ${JSON.stringify(name)} is encrypted.`);
      done++;
      if (rel === '') continue;
      const dest = path.join(target, ...rel.split('/'));
      if (isDir) {
        await fsp.mkdir(dest, { recursive: true });
        continue;
      }
      budget.addFile(name, entry.uncompressedSize);
      if (budget.bytes + entry.uncompressedSize > limits.maxTotalBytes)
        budget.addBytes(name, entry.uncompressedSize, 0);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      const stream = await zip.openReadStreamPromise(entry);
      let fileBytes = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, callback: TransformCallback) {
          fileBytes += chunk.length;
          try {
            budget.addBytes(name, chunk.length, fileBytes);
          } catch (error) {
            callback(error as Error);
            return;
          }
          callback(null, chunk);
        },
      });
      // `wx`: an entry listed twice, or a path through an earlier file, fails instead of overwriting.
      const executable = (mode & 0o111) !== 0;
      await pipeline(
        stream,
        meter,
        fs.createWriteStream(dest, { flags: 'wx', mode: executable ? 0o755 : 0o644 }),
      );
      onProgress(done, total, rel);
      await testDelay();
    }
  } catch (error) {
    await fsp.rm(target, { recursive: true, force: true });
    if (error instanceof EngineError) throw error;
    const at = current ? ` at entry ${JSON.stringify(current)}` : '';
    throw refused(`${path.basename(archive)} could not be extracted${at}: ${(error as Error).message}`);
  } finally {
    zip.close();
  }
}
