import fs from 'node:fs';

/**
 * The unix sockets listening on this machine, by real path (its network namespace's
 * /proc/net/unix). A read-only bind keeps a socket connectable (reference/sandbox-linux.md),
 * so /tmp and /run are masked; a service may listen anywhere else (/srv, /var/lib, a
 * workspace), and each such socket is covered by an unreadable file unless a mask hides it
 * or the skill was granted it.
 */
export function listeningSockets(table = '/proc/net/unix'): string[] {
  let text: string;
  try {
    text = fs.readFileSync(table, 'utf8');
  } catch {
    return [];
  }
  const found = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path; flag 0x10000 (__SO_ACCEPTCON) is "listening".
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8 || !fields[7].startsWith('/')) continue;
    if ((parseInt(fields[3], 16) & 0x10000) === 0) continue;
    try {
      // bwrap binds over a real path only; a socket removed since is gone from the file system.
      const real = fs.realpathSync(fields.slice(7).join(' '));
      if (fs.lstatSync(real).isSocket()) found.add(real);
    } catch {
      // Removed, or in another mount namespace.
    }
  }
  return [...found];
}
