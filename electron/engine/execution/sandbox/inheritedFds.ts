import fs from 'node:fs';

/** O_CLOEXEC as /proc/<pid>/fdinfo's octal `flags:` line shows it (Linux, every architecture). */
const O_CLOEXEC = 0o2000000;

/**
 * This process's descriptors above stderr that a child would inherit: the ones it was given
 * itself without close-on-exec (a terminal, an IDE, a CI runner or a shell's `exec 40<>file`
 * leaves them open). Node opens its own with O_CLOEXEC, and neither libuv, prlimit nor bwrap
 * closes the others, so they reached the sandboxed script, which could write through one to a
 * file outside its grants. Linux only; none where /proc cannot be read.
 */
export function inheritableFds(): number[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc/self/fdinfo');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${name}`, 'utf8'));
      if (flags && (parseInt(flags[1], 8) & O_CLOEXEC) === 0) out.push(fd);
    } catch {
      // Closed between the listing and the read (the listing's own descriptor, say).
    }
  }
  return out.sort((a, b) => a - b);
}

/**
 * A spawn's stdio array extended so that each descriptor of `leaked` at or past its end is
 * /dev/null (`devNull`, an open descriptor) in the child: libuv dup2s it there, over the one
 * the child would have inherited. The entries between are 'ignore'.
 */
export function coverInherited<T>(stdio: T[], leaked: number[], devNull: number): (T | 'ignore' | number)[] {
  const past = leaked.filter((fd) => fd >= stdio.length);
  if (past.length === 0) return stdio;
  const out: (T | 'ignore' | number)[] = [...stdio];
  while (out.length <= past[past.length - 1]) out.push('ignore');
  for (const fd of past) out[fd] = devNull;
  return out;
}
