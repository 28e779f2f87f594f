import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { EngineError } from '../errors';
import {
  Budget,
  INSTALL_LIMITS,
  refused,
  removeTree,
  safeEntryPath,
  testDelay,
  type InstallLimits,
} from './limits';

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

/** One entry, checked and ready to extract. */
interface Planned {
  entry: yauzl.Entry;
  name: string;
  /** Clean relative path; '' for the archive's own root ("./"), which is skipped. */
  rel: string;
  isDir: boolean;
  executable: boolean;
}

/**
 * First pass, over the central directory only (nothing inflated, nothing written): every
 * path, type and declared size is checked, so a hostile archive is refused before the
 * first byte lands.
 *
 * The declared sizes are the real ones. yauzl with `validateEntrySizes` (its default, and
 * set below) ends an entry's stream with an error ("too many bytes in the stream") before it
 * yields more than the declared uncompressed size: a deflated entry goes through its
 * AssertByteCountStream, and a stored one is read as a slice of exactly its compressed size,
 * which yauzl requires to equal the uncompressed size. So counting the declared sizes here
 * is enough, and a byte meter during extraction could never fire (hostile.test.ts and
 * archive.test.ts show the lying archives stopped).
 */
async function plan(zip: yauzl.ZipFile, limits: InstallLimits): Promise<Planned[]> {
  if (zip.entryCount > limits.maxFiles * 2)
    throw refused(
      `the archive holds ${zip.entryCount} entries; at most ${limits.maxFiles} files are allowed.`,
    );
  const budget = new Budget(limits);
  const planned: Planned[] = [];
  for await (const entry of zip.eachEntry()) {
    const name = entryName(entry);
    const rel = safeEntryPath(name);
    const mode = unixMode(entry);
    const type = mode & S_IFMT;
    if (type === S_IFLNK)
      throw refused(`entry ${JSON.stringify(name)} is a symbolic link; archives may not contain links.`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
      throw refused(`entry ${JSON.stringify(name)} is a device, FIFO or socket, not a regular file.`);
    if (entry.isEncrypted()) throw refused(`entry ${JSON.stringify(name)} is encrypted.`);
    const isDir = name.endsWith('/') || type === S_IFDIR;
    if (!isDir) {
      budget.addFile(name, entry.uncompressedSize);
      budget.addBytes(name, entry.uncompressedSize, entry.uncompressedSize);
    }
    planned.push({ entry, name, rel, isDir, executable: (mode & 0o111) !== 0 });
  }
  return planned;
}

/**
 * Extracts a `.zip` / `.skill` archive into `target` (which must not exist yet): one open of
 * the archive, every entry checked (paths, links and special files, encryption, the caps)
 * before anything is written, then each entry streamed out. On any refusal or error `target`
 * is removed.
 */
export async function extractArchive(
  archive: string,
  target: string,
  onProgress: Progress = () => undefined,
  limits: InstallLimits = INSTALL_LIMITS,
): Promise<void> {
  const name = path.basename(archive);
  let zip: yauzl.ZipFile;
  try {
    // autoClose off: the entries are all read first, and their streams opened afterwards.
    zip = await yauzl.openPromise(archive, {
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
    });
  } catch (error) {
    throw refused(`${name} is not a readable zip archive (${(error as Error).message}).`);
  }
  try {
    const planned = await plan(zip, limits).catch((error: unknown) => {
      throw error instanceof EngineError
        ? error
        : refused(`${name} could not be read: ${(error as Error).message}`);
    });
    await extract(zip, planned, target, name, onProgress);
  } finally {
    zip.close();
  }
}

async function extract(
  zip: yauzl.ZipFile,
  planned: Planned[],
  target: string,
  archiveName: string,
  onProgress: Progress,
): Promise<void> {
  // Not recursive: an existing target fails here, before anything is written into it.
  await fsp.mkdir(target);
  let done = 0;
  try {
    for (const item of planned) {
      done++;
      if (item.rel === '') continue;
      const dest = path.join(target, ...item.rel.split('/'));
      if (item.isDir) {
        await fsp.mkdir(dest, { recursive: true });
        continue;
      }
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      const stream = await zip.openReadStreamPromise(item.entry);
      // `wx`: an entry listed twice, or a path through an earlier file, fails instead of overwriting.
      const mode = item.executable ? 0o755 : 0o644;
      await pipeline(stream, fs.createWriteStream(dest, { flags: 'wx', mode }));
      onProgress(done, planned.length, item.rel);
      await testDelay();
    }
  } catch (error) {
    await removeTree(target);
    const at = JSON.stringify(planned[done - 1].name);
    throw refused(`${archiveName} could not be extracted at entry ${at}: ${(error as Error).message}`);
  }
}
