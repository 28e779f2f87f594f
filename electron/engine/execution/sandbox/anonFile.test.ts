import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anonymousFile } from './anonFile';

// The descriptors bwrap reads its options and seccomp program from (every bwrap test starts
// its runs through them; these check the file itself).
describe.skipIf(process.platform !== 'linux')('anonymousFile', () => {
  it('is read from its start, whole, by a child that inherits it (more than a pipe holds)', () => {
    const bytes = randomBytes(200 * 1024);
    const fd = anonymousFile(bytes);
    expect(fd).not.toBeNull();
    try {
      const cat = spawnSync('/bin/sh', ['-c', 'cat <&3'], { stdio: ['ignore', 'pipe', 'pipe', fd!] });
      expect(cat.status).toBe(0);
      expect(Buffer.compare(cat.stdout, bytes)).toBe(0);
    } finally {
      fs.closeSync(fd!);
    }
  });

  it('has no name: nothing can open it by a path, and only its owner could read it', () => {
    const before = fs.readdirSync('/dev/shm');
    const fd = anonymousFile(new TextEncoder().encode('--setenv\0TOKEN\0secret\0'));
    try {
      expect(fs.readlinkSync(`/proc/self/fd/${fd}`)).toMatch(/^\/dev\/shm\/#\d+ \(deleted\)$/);
      expect(fs.readdirSync('/dev/shm')).toEqual(before);
      const st = fs.fstatSync(fd!);
      expect(st.nlink).toBe(0);
      expect(st.mode & 0o077).toBe(0);
    } finally {
      fs.closeSync(fd!);
    }
  });

  it('holds nothing for an empty input (the reader sees EOF at once)', () => {
    const fd = anonymousFile(new Uint8Array(0));
    try {
      const cat = spawnSync('/bin/sh', ['-c', 'wc -c <&3'], { stdio: ['ignore', 'pipe', 'pipe', fd!] });
      expect(cat.stdout.toString().trim()).toBe('0');
    } finally {
      fs.closeSync(fd!);
    }
  });
});
