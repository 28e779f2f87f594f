import fs from 'node:fs';
import path from 'node:path';

// A run as root keeps uid 0 inside the sandbox, without capabilities: it cannot read other
// users' private files, but it still owns root's. Beyond the named secrets (layout.ts: password
// hashes, SSH host keys) the system holds more that only root may read: TLS keys in
// /etc/ssl/private, debconf's passwords.dat, NetworkManager's Wi-Fi secrets, a Kerberos keytab,
// /boot's kernel symbol map. For root runs they are found by their mode and hidden.
//
// Why not let the kernel hide them everywhere, as it does for an ordinary user? bwrap's --uid
// only renames uid 0 inside the namespace: the files' owner is still the process, so a mode-600
// file of root's stays readable (tried with bwrap 0.8 and --cap-drop ALL). Starting bwrap as an
// unprivileged uid does hide them, but then the run folder and every write grant, owned by root,
// refuse its writes, and root's 0700 folders cannot be bound at all. Only an idmapped mount of
// each bound folder (mount_setattr; util-linux 2.39's X-mount.idmap) would square the two, and
// neither Node nor Debian 12's util-linux 2.38 offers one. A scan of everything the sandbox shows
// took 8-15 s here (350,000 entries) and would still miss files made after it.

/** Where the system keeps its own files (users' homes, /tmp and /run are masked whole already). */
export const SYSTEM_ROOTS = ['/etc', '/var', '/boot', '/opt', '/srv', '/usr/local'];
const MAX_DEPTH = 5;
/** A walk that stops here still hides what it found; it only bounds the time spent. */
const MAX_ENTRIES = 50_000;

export interface RootOnly {
  /** Folders root owns that others may not enter or list: masked. */
  dirs: string[];
  /** Files root owns that others may not read: covered by an unreadable file. */
  files: string[];
}

const cache = new Map<string, RootOnly>();

/** Root's private folders and files under `roots` (symlinks not followed), found once per process. */
export function rootOnly(roots: string[] = SYSTEM_ROOTS): RootOnly {
  const key = roots.join('\0');
  const known = cache.get(key);
  if (known) return known;
  const found: RootOnly = { dirs: [], files: [] };
  let seen = 0;
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      if (!e.isDirectory() && !e.isFile()) continue;
      const p = path.join(dir, e.name);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(p);
      } catch {
        continue;
      }
      const own = st.uid === 0;
      if (e.isDirectory()) {
        if (own && (st.mode & 0o005) !== 0o005) found.dirs.push(p);
        else if (depth < MAX_DEPTH) walk(p, depth + 1);
      } else if (own && (st.mode & 0o004) === 0) found.files.push(p);
    }
  };
  // By real path: bwrap cannot bind over a file reached through a link.
  for (const root of roots) {
    try {
      walk(fs.realpathSync(root), 1);
    } catch {
      // Not on this system.
    }
  }
  cache.set(key, found);
  return found;
}

/**
 * What /sys shows only root: the firmware's ACPI tables (a laptop's MSDM holds its Windows
 * product key) and DMI tables, and the machine's serial numbers and UUID. Probing `skilldeck
 * run` as root, a script read /sys/firmware/acpi/tables/*; an ordinary user cannot. The rest of
 * /sys stays readable, as in Anthropic's sandbox-runtime and Codex (hardware and kernel facts
 * tools need; its thousands of root-only attributes are kernel statistics, not secrets).
 */
const FIRMWARE_DIRS = ['/sys/firmware/acpi/tables', '/sys/firmware/dmi'];
const DMI_IDS = ['product_serial', 'product_uuid', 'board_serial', 'chassis_serial'].map(
  (f) => `/sys/devices/virtual/dmi/id/${f}`,
);

/** The firmware folders and machine identifiers of /sys that only root may read, on this machine. */
export function firmwareSecrets(): RootOnly {
  const exists = (p: string) => fs.existsSync(p);
  const rootOnlyFile = (p: string) => {
    try {
      const st = fs.statSync(p);
      return st.uid === 0 && (st.mode & 0o004) === 0;
    } catch {
      return false;
    }
  };
  return { dirs: FIRMWARE_DIRS.filter(exists), files: DMI_IDS.filter(rootOnlyFile) };
}
