import fs from 'node:fs';

// bwrap reads its options (`--args 3`) and its seccomp program (`--seccomp 4`) from file
// descriptors, to EOF, then closes them. A pipe per descriptor costs the engine a stream, a
// socket and their teardown on every run (about 2 ms of CPU on a 2-core machine); an
// anonymous file the child inherits costs one open and one write.

/** open(2)'s O_TMPFILE: __O_TMPFILE (the same on x86-64 and arm64) with O_DIRECTORY. */
const O_TMPFILE = 0o20000000 | fs.constants.O_DIRECTORY;
/** A RAM-backed filesystem: what is written never reaches a disk (the options hold env values). */
const TMPFS = '/dev/shm';

/**
 * A descriptor of a file that holds `bytes` and has no name (O_TMPFILE on /dev/shm), read from
 * its start by whoever inherits it; null where such a file cannot be made (not Linux, no
 * /dev/shm, a kernel or filesystem without O_TMPFILE): the caller passes the bytes through a
 * pipe instead. Nothing can open it by a path; the caller closes it once the child holds it.
 */
export function anonymousFile(bytes: Uint8Array): number | null {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return null;
  let fd: number;
  try {
    fd = fs.openSync(TMPFS, O_TMPFILE | fs.constants.O_RDWR, 0o600);
  } catch {
    return null;
  }
  try {
    // Written at position 0 (pwrite), so the shared offset stays at the start for the reader.
    let at = 0;
    while (at < bytes.length) at += fs.writeSync(fd, bytes, at, bytes.length - at, at);
    return fd;
  } catch {
    fs.closeSync(fd);
    return null;
  }
}
