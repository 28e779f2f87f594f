import fsp from 'node:fs/promises';
import path from 'node:path';
import { EngineError } from '../errors';

/** Caps on what one install may bring in (issue 3: total, file count, per file). */
export const INSTALL_LIMITS = {
  maxTotalBytes: 50 * 1024 * 1024,
  maxFiles: 2_000,
  maxFileBytes: 10 * 1024 * 1024,
};
export type InstallLimits = typeof INSTALL_LIMITS;

/** An install refused for a reason the user must see (hostile or oversized input). */
export const refused = (message: string) => new EngineError('forbidden', `Install refused: ${message}`);

const MiB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/**
 * Checks one entry path of an archive or folder and returns its clean `/`-separated form.
 * Refuses absolute paths, drive letters, `..`, backslashes and NUL bytes: any of them can
 * make a naive extractor write outside the target ("zip slip").
 */
export function safeEntryPath(name: string): string {
  const shown = JSON.stringify(name.slice(0, 300));
  if (name.includes('\0')) throw refused(`entry ${shown} contains a NUL byte.`);
  if (name.includes('\\'))
    throw refused(`entry ${shown} contains a backslash; archive paths must use "/" only.`);
  // win32.isAbsolute takes `/x`, `C:/x` and `//host/share`; the regex adds drive-relative `C:x`.
  if (path.win32.isAbsolute(name) || /^[a-zA-Z]:/.test(name))
    throw refused(`entry ${shown} is an absolute path; only paths inside the skill are allowed.`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw refused(`entry ${shown} climbs out of the target with "..".`);
  return segments.join('/');
}

/** Counts files and bytes against the caps as they stream in; throws the moment one is passed. */
export class Budget {
  files = 0;
  bytes = 0;
  constructor(private readonly limits: InstallLimits = INSTALL_LIMITS) {}

  /** A new file named `entry` declared (or measured) at `size` bytes. */
  addFile(entry: string, declaredSize = 0): void {
    this.files++;
    if (this.files > this.limits.maxFiles)
      throw refused(`more than ${this.limits.maxFiles} files (at ${JSON.stringify(entry)}).`);
    this.checkFileSize(entry, declaredSize);
  }

  checkFileSize(entry: string, size: number): void {
    if (size > this.limits.maxFileBytes)
      throw refused(
        `${JSON.stringify(entry)} is larger than the ${MiB(this.limits.maxFileBytes)} per-file limit.`,
      );
  }

  /** `n` more bytes written for `entry`, whose running size is now `fileBytes`. */
  addBytes(entry: string, n: number, fileBytes: number): void {
    this.bytes += n;
    this.checkFileSize(entry, fileBytes);
    if (this.bytes > this.limits.maxTotalBytes)
      throw refused(
        `the content is larger than the ${MiB(this.limits.maxTotalBytes)} total limit (at ${JSON.stringify(entry)}).`,
      );
  }
}

/** True when `child` is `parent` or lies inside it (both absolute, resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** Deletes a folder of ours and everything in it. */
export function removeTree(dir: string): Promise<void> {
  return fsp.rm(dir, {
    recursive: true,
    // Stryker disable next-line BooleanLiteral: force only matters when the folder went meanwhile (a user, another SkillDeck process)
    force: true,
  });
}

/** Test-only pause between install phases (kill tests); 0 in normal use. */
export async function testDelay(): Promise<void> {
  const ms = Number(process.env.SKILLDECK_TEST_INSTALL_DELAY_MS ?? 0);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}
