import { describe, expect, it } from 'vitest';
import { encodeProgram, seccompFilter, seccompProgram } from './seccomp';

// The filter's jumps, checked by running it: a tiny classic-BPF interpreter over the four
// instructions it uses (bwrap.keyring.test.ts shows the real kernel refusing the calls).
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;

function run(
  prog: ReturnType<typeof seccompProgram>,
  data: { nr: number; arch: number; arg0?: number },
): number {
  let a = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const { code, jt, jf, k } = prog[pc];
    if (code === 0x20) a = k === 0 ? data.nr : k === 4 ? data.arch : (data.arg0 ?? 0);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x06) return k;
  }
  throw new Error('fell off the end');
}

describe('seccompProgram', () => {
  const abis = [
    { arch: 0xc000003e, denied: [248, 249, 250], x32: true, socket: 41 },
    { arch: 0x40000003, denied: [286, 287, 288], socket: 359, socketcall: 102 },
  ];
  const prog = seccompProgram(abis);

  it('refuses the keyring calls of each ABI and allows the others', () => {
    for (const nr of [248, 249, 250]) expect(run(prog, { nr, arch: 0xc000003e })).toBe(EPERM);
    for (const nr of [286, 287, 288]) expect(run(prog, { nr, arch: 0x40000003 })).toBe(EPERM);
    for (const nr of [0, 1, 59, 247, 251, 435]) expect(run(prog, { nr, arch: 0xc000003e })).toBe(ALLOW);
    // 248 is not a keyring call in the 32-bit table.
    for (const nr of [3, 248, 285, 289]) expect(run(prog, { nr, arch: 0x40000003 })).toBe(ALLOW);
  });

  it('refuses x32 calls and any ABI it does not know', () => {
    expect(run(prog, { nr: 0x40000000 + 250, arch: 0xc000003e })).toBe(EPERM);
    expect(run(prog, { nr: 0x40000000, arch: 0xc000003e })).toBe(EPERM);
    expect(run(prog, { nr: 1, arch: 0xc00000b7 })).toBe(EPERM);
  });

  it('allows sockets of every family, socketcall included (headless Chromium needs AF_UNIX)', () => {
    expect(run(prog, { nr: 41, arch: 0xc000003e, arg0: 1 })).toBe(ALLOW);
    expect(run(prog, { nr: 102, arch: 0x40000003 })).toBe(ALLOW);
  });

  it('encodes struct sock_filter: 8 bytes each, code, jt, jf, k', () => {
    const bytes = encodeProgram([{ code: 0x15, jt: 2, jf: 3, k: 0x01020304 }]);
    expect([...bytes]).toEqual([0x15, 0, 2, 3, 4, 3, 2, 1]);
  });

  it('has a filter for this machine and none for an unknown one', () => {
    expect(seccompFilter('x64')?.length).toBe(prog.length * 8);
    expect(seccompFilter('arm64')).toBeInstanceOf(Uint8Array);
    expect(seccompFilter('riscv64')).toBeNull();
  });
});
