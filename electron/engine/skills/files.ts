import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry, SkillFile } from '../../../shared/contract';
import { EngineError, forbidden, notFound } from '../errors';

/** Limits of `get()`'s file tree and `readFile`. */
export const FILE_LIMITS = { maxEntries: 5_000, maxRead: 1024 * 1024, sniffBytes: 8_000 };

const SKIP_DIRS = new Set(['.git', 'node_modules']);

const EXTENSIONS: Record<string, string> = {
  '.py': 'python',
  '.sh': 'sh',
  '.bash': 'bash',
  '.zsh': 'zsh',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.rb': 'ruby',
  '.pl': 'perl',
  '.php': 'php',
  '.ps1': 'powershell',
  '.lua': 'lua',
};

const INTERPRETERS: [RegExp, string][] = [
  [/^python[\d.]*$/, 'python'],
  [/^(bash)$/, 'bash'],
  [/^(sh|dash|ash)$/, 'sh'],
  [/^zsh$/, 'zsh'],
  [/^(node|nodejs|bun)$/, 'node'],
  [/^(deno|tsx|ts-node)$/, 'typescript'],
  [/^ruby$/, 'ruby'],
  [/^perl$/, 'perl'],
  [/^php$/, 'php'],
  [/^pwsh$/, 'powershell'],
];

/** A runnable script's language, from its shebang first and its extension second. */
export function scriptLanguage(relPath: string, head: Buffer): string | undefined {
  const firstLine = head.subarray(0, 200).toString('utf8').split('\n')[0];
  const shebang = /^#!\s*(\S+)(.*)$/.exec(firstLine);
  if (shebang) {
    const args = shebang[2]
      .trim()
      .split(/\s+/)
      .filter((a) => a && !a.startsWith('-'));
    let interpreter = path.posix.basename(shebang[1]);
    if (interpreter === 'env' && args.length > 0) interpreter = args[0];
    const hit = INTERPRETERS.find(([re]) => re.test(interpreter));
    if (hit) return hit[1];
  }
  return EXTENSIONS[path.extname(relPath).toLowerCase()];
}

export interface FileTree {
  files: FileEntry[];
  truncated: boolean;
  /** sha256 over the sorted relative paths and the bytes of every file. */
  contentHash: string;
}

/**
 * Lists a skill folder (relative `/` paths, sorted) and hashes it. The hash covers every
 * file's path, size and bytes, so approvals and repairs bound to it notice any change.
 * `.git` and `node_modules` are skipped; symlinks are hashed by their target text and
 * never followed out of the folder; the tree stops at `maxEntries` (`truncated`).
 */
export async function readFileTree(dir: string, limits = FILE_LIMITS): Promise<FileTree> {
  const hash = createHash('sha256');
  const files: FileEntry[] = [];
  let truncated = false;

  const walk = async (absDir: string, rel: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(absDir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= limits.maxEntries) {
        truncated = true;
        return;
      }
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      const absPath = path.join(absDir, entry.name);
      if (entry.isDirectory()) {
        if (SKIP_DIRS.has(entry.name)) continue;
        files.push({ path: relPath, kind: 'dir', size: 0, executable: false });
        await walk(absPath, relPath);
      } else if (entry.isSymbolicLink()) {
        const target = await fsp.readlink(absPath).catch(() => '');
        hash.update(`${relPath}\0link\0${target}\0`);
        files.push({ path: relPath, kind: 'file', size: 0, executable: false });
      } else if (entry.isFile()) {
        files.push(await hashFile(absPath, relPath, hash));
      }
    }
  };

  await walk(dir, '');
  if (truncated) hash.update('\0truncated\0');
  return { files, truncated, contentHash: hash.digest('hex') };
}

async function hashFile(absPath: string, relPath: string, hash: Hash): Promise<FileEntry> {
  const st = await fsp.stat(absPath);
  hash.update(`${relPath}\0${st.size}\0`);
  let head = Buffer.alloc(0);
  if (st.size <= 8 * 1024 * 1024) {
    const bytes = await fsp.readFile(absPath);
    hash.update(bytes);
    head = bytes.subarray(0, 256);
  } else {
    // Big files are streamed rather than held in memory.
    for await (const chunk of fs.createReadStream(absPath)) {
      if (head.length === 0) head = Buffer.from((chunk as Buffer).subarray(0, 256));
      hash.update(chunk as Buffer);
    }
  }
  hash.update('\0');
  const executable = process.platform !== 'win32' && (st.mode & 0o111) !== 0;
  const language = scriptLanguage(relPath, head);
  const entry: FileEntry = { path: relPath, kind: 'file', size: st.size, executable };
  if (language) entry.scriptLanguage = language;
  return entry;
}

/**
 * Reads one file of a skill, confined to the skill folder: absolute paths, `..` and
 * symlinks that resolve outside it are `forbidden` (a hostile renderer may ask anything).
 * Text is capped at `maxRead` bytes (`truncated`); a file with a NUL byte is `binary`.
 */
export async function readSkillFile(
  dir: string,
  relPath: string,
  limits: typeof FILE_LIMITS & { legacyText?: boolean } = FILE_LIMITS,
): Promise<SkillFile> {
  if (typeof relPath !== 'string') throw new EngineError('invalid_params', 'The path must be a string.');
  if (relPath.includes('\0')) throw forbidden('The path contains a NUL byte.');
  if (path.isAbsolute(relPath) || path.win32.isAbsolute(relPath) || /^[a-zA-Z]:/.test(relPath)) {
    throw forbidden(
      `Absolute paths are not allowed: give a path relative to the skill folder, not "${relPath}".`,
    );
  }
  const segments = relPath.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.includes('..'))
    throw forbidden(`"${relPath}" leaves the skill folder; \`..\` is not allowed.`);
  if (segments.length === 0)
    throw new EngineError('invalid_params', 'Give the path of a file inside the skill folder.');
  const clean = segments.join('/');

  const realDir = await fsp.realpath(dir).catch(() => {
    throw notFound(`The skill folder ${dir} no longer exists; reload the skills.`);
  });
  const realFile = await fsp.realpath(path.join(dir, ...segments)).catch(() => {
    throw notFound(`No file "${clean}" in this skill.`);
  });
  if (
    realFile !== realDir &&
    !realFile.startsWith(realDir.endsWith(path.sep) ? realDir : realDir + path.sep)
  ) {
    throw forbidden(`"${clean}" is a link that points outside the skill folder; it cannot be read.`);
  }
  const st = await fsp.stat(realFile);
  if (!st.isFile()) throw new EngineError('invalid_params', `"${clean}" is a folder, not a file.`);

  const handle = await fsp.open(realFile, 'r');
  try {
    const length = Math.min(st.size, limits.maxRead);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.subarray(0, limits.sniffBytes).includes(0)) {
      return { path: clean, size: st.size, binary: true, truncated: false, content: '' };
    }
    const truncated = st.size > bytesRead;
    const content = decodeUtf8Prefix(bytes, truncated);
    // Not UTF-8 (a Latin-1 / Windows-1252 file): every such byte would read as U+FFFD.
    if (limits.legacyText && content.includes('\uFFFD') && !isUtf8(bytes.subarray(0, bytesRead))) {
      const legacy = decodeWindows1252(bytes);
      return {
        path: clean,
        size: st.size,
        binary: false,
        truncated,
        content: legacy,
        encoding: 'windows-1252',
      };
    }
    return { path: clean, size: st.size, binary: false, truncated, content };
  } finally {
    await handle.close();
  }
}

// 0x80–0x9F in Windows-1252 (the rest is Latin-1); Node 20's TextDecoder reads them as Latin-1.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

const decodeWindows1252 = (bytes: Buffer) =>
  bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);

/** Valid UTF-8, allowing a character cut at the end (a capped read). */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Decodes UTF-8; when cut short, drops a trailing partial character instead of showing U+FFFD. */
function decodeUtf8Prefix(bytes: Buffer, cut: boolean): string {
  if (!cut || bytes.length === 0) return bytes.toString('utf8');
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.toString('utf8');
  const lead = bytes[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return (need > continuation + 1 ? bytes.subarray(0, i) : bytes).toString('utf8');
}
