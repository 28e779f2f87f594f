import { createHash, randomUUID } from 'node:crypto';
import fs, { type Dirent } from 'node:fs';
import path from 'node:path';
import { readFileTree } from './files';

/** Folders the content hash skips (files.ts) although a run can load code from them. */
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * A digest of what the content hash does not read, by `lstat`: everything under a `node_modules`
 * or `.git` folder at any depth, or the whole folder when its listing was cut short (`all`). Each
 * entry counts with its path, type, size, mode, inode, mtime and ctime in nanoseconds, and a
 * link with its target text. A write, a rename into place or `utimes` moves the ctime, which no
 * unprivileged process can set back, so on this machine a change is seen as surely as by reading
 * the bytes, at a fraction of the cost (3,500 files: about 30 ms, against 0.6 s to read them).
 * A link that leads out of the folder counts with what it reaches, followed (the file, or the
 * folder's entries by `lstat`, up to 5,000; past that the value is new each time).
 * Null when there is nothing of the kind: the content hash covers the whole skill then.
 */
export async function uncoveredFingerprint(dir: string, all = false): Promise<string | null> {
  const hash = createHash('sha256');
  let entries = 0;
  const links: string[] = [];

  const walk = async (abs: string, rel: string, stat: boolean): Promise<void> => {
    let list: Dirent[];
    try {
      list = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      if (stat) hash.update(`${rel}\0unreadable\0`);
      return;
    }
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of list) {
      const inside = stat || SKIPPED.has(e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      const absPath = path.join(abs, e.name);
      if (inside) {
        hash.update(describe(absPath, relPath));
        // Synchronous stats are several times faster than one promise each; yielding now and
        // then keeps a big node_modules from holding the event loop.
        if (++entries % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      if (e.isDirectory()) await walk(absPath, relPath, inside);
      else if (e.isSymbolicLink()) links.push(relPath);
    }
  };

  // A link out of the folder is followed by every run (bwrap shows what it reaches unless a mask
  // hides it), yet the content hash keeps only its target text: what it reaches counts here.
  let realRoot = dir;
  try {
    realRoot = fs.realpathSync(dir);
  } catch {
    // Unreadable: the walk below finds nothing either.
  }
  let budget = LINKED_MAX;
  const walkLinked = async (abs: string, rel: string): Promise<void> => {
    let list: Dirent[];
    try {
      list = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of list) {
      // Too much to watch (a link to /): a fresh value each time, so a grant never matches.
      if (--budget < 0) return void hash.update(randomUUID());
      hash.update(describe(path.join(abs, e.name), `${rel}/${e.name}`));
      if (e.isDirectory()) await walkLinked(path.join(abs, e.name), `${rel}/${e.name}`);
      if (budget % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await walk(dir, '', all);
  for (const rel of links.sort()) {
    let real: string;
    try {
      real = fs.realpathSync(path.join(dir, rel));
    } catch {
      continue;
    }
    const back = path.relative(realRoot, real);
    if (back === '' || (!back.startsWith('..') && !path.isAbsolute(back))) continue;
    entries++;
    hash.update(`${rel}\0links out\0${describe(real, rel, true)}`);
    if (isDir(real)) await walkLinked(real, rel);
  }
  return entries > 0 ? hash.digest('hex') : null;
}

const isDir = (p: string) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** Entries read through links out of the skill before it gives up on watching them. */
const LINKED_MAX = 5_000;

const YIELD_EVERY = 500;

function describe(abs: string, rel: string, follow = false): string {
  try {
    const st = follow ? fs.statSync(abs, { bigint: true }) : fs.lstatSync(abs, { bigint: true });
    const link = st.isSymbolicLink() ? fs.readlinkSync(abs) : '';
    return [rel, st.mode, st.size, st.ino, st.mtimeNs, st.ctimeNs, link, ''].join('\0');
  } catch {
    return `${rel}\0gone\0`;
  }
}

/**
 * What an "always allow" grant binds to (DESIGN §4): the content hash, joined with the
 * fingerprint of what it skips when the skill has any, so code swapped into its node_modules
 * or .git asks again like an edited script does.
 */
export async function grantHash(skill: {
  path: string;
  contentHash: string;
  filesTruncated: boolean;
}): Promise<string> {
  const fingerprint = await uncoveredFingerprint(skill.path, skill.filesTruncated);
  if (fingerprint === null) return skill.contentHash;
  return createHash('sha256').update(`${skill.contentHash}\0${fingerprint}`).digest('hex');
}

/**
 * The skill folder's grant hash as it is on disk now, read again (not the one its detail was
 * loaded with): what an answer given after a wait is checked against before the run starts.
 */
export async function grantHashNow(dir: string): Promise<string> {
  const tree = await readFileTree(dir);
  return grantHash({ path: dir, contentHash: tree.contentHash, filesTruncated: tree.truncated });
}
