import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { encodeProgram, seccompFilter, seccompProgram } from './seccomp';
import { PID_NS } from './testing/harness';

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

/** struct sock_filter[] back into instructions, in this machine's byte order (as the kernel reads it). */
function decode(bytes: Uint8Array): ReturnType<typeof seccompProgram> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = os.endianness() === 'LE';
  return Array.from({ length: bytes.length / 8 }, (_, i) => ({
    code: view.getUint16(i * 8, le),
    jt: view.getUint8(i * 8 + 2),
    jf: view.getUint8(i * 8 + 3),
    k: view.getUint32(i * 8 + 4, le),
  }));
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

  it('encodes every instruction at its own 8 bytes, so the bytes decode back to the program', () => {
    expect(decode(encodeProgram(prog))).toEqual(prog);
  });

  it("writes a big-endian machine's byte order there", () => {
    vi.spyOn(os, 'endianness').mockReturnValue('BE');
    const bytes = encodeProgram([{ code: 0x15, jt: 2, jf: 3, k: 0x01020304 }]);
    expect([...bytes]).toEqual([0, 0x15, 2, 3, 1, 2, 3, 4]);
  });
  afterEach(() => vi.restoreAllMocks());

  it("x64's filter, as bytes, refuses the keyring calls and ptrace of x86-64, x32 and i386 and allows the rest", () => {
    const x64 = decode(seccompFilter('x64')!);
    for (const nr of [248, 249, 250, 101, 0x40000000 + 39])
      expect(run(x64, { nr, arch: 0xc000003e })).toBe(EPERM);
    for (const nr of [286, 287, 288, 26]) expect(run(x64, { nr, arch: 0x40000003 })).toBe(EPERM);
    // io_uring: the same numbers in every table.
    for (const arch of [0xc000003e, 0x40000003])
      for (const nr of [425, 426, 427]) expect(run(x64, { nr, arch })).toBe(EPERM);
    for (const nr of [0, 26, 39, 59, 100, 102, 247, 251, 424, 428])
      expect(run(x64, { nr, arch: 0xc000003e })).toBe(ALLOW);
    for (const nr of [1, 20, 25, 27, 101, 285, 289]) expect(run(x64, { nr, arch: 0x40000003 })).toBe(ALLOW);
    expect(run(x64, { nr: 217, arch: 0xc00000b7 })).toBe(EPERM);
  });

  it("arm64's filter, as bytes, refuses the keyring calls and ptrace of arm64 and its 32-bit ABI and allows the rest", () => {
    const arm64 = decode(seccompFilter('arm64')!);
    for (const nr of [217, 218, 219, 117]) expect(run(arm64, { nr, arch: 0xc00000b7 })).toBe(EPERM);
    for (const nr of [309, 310, 311, 26]) expect(run(arm64, { nr, arch: 0x40000028 })).toBe(EPERM);
    for (const arch of [0xc00000b7, 0x40000028])
      for (const nr of [425, 426, 427]) expect(run(arm64, { nr, arch })).toBe(EPERM);
    for (const nr of [0, 26, 63, 116, 118, 172, 216, 220, 248, 250])
      expect(run(arm64, { nr, arch: 0xc00000b7 })).toBe(ALLOW);
    for (const nr of [1, 20, 25, 27, 117, 217, 308, 312])
      expect(run(arm64, { nr, arch: 0x40000028 })).toBe(ALLOW);
    expect(run(arm64, { nr: 39, arch: 0xc000003e })).toBe(EPERM);
  });

  it('has a filter for this machine and none for an unknown one', () => {
    // The test's ABIs above list the keyring calls; the machine's add ptrace and io_uring's three, four checks each.
    expect(seccompFilter('x64')?.length).toBe((prog.length + 8) * 8);
    expect(seccompFilter('arm64')).toBeInstanceOf(Uint8Array);
    expect(seccompFilter('riscv64')).toBeNull();
  });
});

// The filter as the kernel runs it: a process under bwrap --seccomp, calling the kernel itself.
const PROBE = `import ctypes, errno, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, REQUEST_KEY, KEYCTL, GETPID, PTRACE = {"x86_64": (248, 249, 250, 39, 101), "aarch64": (217, 218, 219, 172, 117)}[platform.machine()]
def call(nr, *args):
    r = libc.syscall(nr, *args)
    return "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()]
# keyctl(KEYCTL_GET_KEYRING_ID, session, no create); add_key to no keyring; request_key of no key.
print(call(KEYCTL, 0, -3, 0), call(ADD_KEY, b"user", b"skilldeck", b"v", 1, 0),
      call(REQUEST_KEY, b"user", b"skilldeck-no-such-key", None, 0), call(GETPID),
      call(PTRACE, 0x4206, 1, 0, 0))  # PTRACE_SEIZE the sandbox's init
if platform.machine() == "x86_64":
    print(call(0x40000000 + GETPID))  # getpid through x32
params = ctypes.create_string_buffer(120)
print(call(425, 4, params))  # io_uring_setup: a ring of 4 entries
sys.stdout.write(open("/etc/passwd").read(1) and "read a file\\n")
`;
const filter = seccompFilter();

describe.skipIf(process.platform !== 'linux' || !filter)('the filter under bwrap --seccomp', () => {
  const dir = tempDir('skilldeck-seccomp-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = (withFilter: boolean) => {
    const file = path.join(dir, 'filter.bpf');
    fs.writeFileSync(file, filter!);
    const fd = fs.openSync(file, 'r');
    try {
      const r = spawnSync(
        'bwrap',
        [...PID_NS, ...(withFilter ? ['--seccomp', '3'] : []), ...['--', 'python3', '-c', PROBE]],
        { stdio: ['ignore', 'pipe', 'pipe', fd], encoding: 'utf8', timeout: 5_000, killSignal: 'SIGKILL' },
      );
      if (r.status !== 0) throw new Error(`bwrap failed: ${r.stderr}`);
      return r.stdout.split('\n');
    } finally {
      fs.closeSync(fd);
    }
  };

  it('refuses add_key, request_key, keyctl, ptrace and io_uring_setup with EPERM, and runs the rest', () => {
    const [calls, ...rest] = run(true);
    expect(calls).toBe('EPERM EPERM EPERM ok EPERM');
    if (process.arch === 'x64') expect(rest.shift()).toBe('EPERM');
    expect(rest.shift()).toBe('EPERM');
    expect(rest).toEqual(['read a file', '']);
  });

  it('is what refuses them: without it the same calls reach the keyring', (ctx) => {
    const [calls] = run(false);
    if (calls.startsWith('EPERM'))
      return ctx.skip("this machine's own seccomp profile refuses them (a container's)");
    expect(calls).toBe('ok EINVAL ENOKEY ok ok');
  });
});
