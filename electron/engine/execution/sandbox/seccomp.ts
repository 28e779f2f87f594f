import os from 'node:os';

// The seccomp filter bwrap installs (`--seccomp FD`) before it runs the command. Namespaces
// and masks hide files; they do not hide the kernel keyring, which a run would otherwise
// share with the engine's login session (cached disk passphrases, Kerberos tickets). The
// keyring calls fail with EPERM, as under Docker's default profile; everything else runs.
// ptrace too: a run is root of its own user namespace, so it could attach to bwrap's init
// (PID 1), whose stop outlives the tracer and holds the finished run until its timeout.
// And io_uring, as Docker's default seccomp profile and Android refuse it: a
// large share of recent kernel privilege escalations went through it, and its operations are
// not system calls a filter sees. libuv (Node) falls back to its thread pool.
// A run with `network: true` shares the host's network namespace and with it the host's
// abstract unix sockets (an X server's @/tmp/.X11-unix/X0); socket(AF_UNIX) stays allowed
// there, since refusing it broke headless Chromium (bwrap.ts, README).

/** One classic BPF instruction (struct sock_filter). */
interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** The system-call numbers an ABI gives add_key, request_key, keyctl, ptrace and io_uring. */
interface Abi {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  arch: number;
  denied: number[];
  /** x86-64's x32 calls carry bit 30 in the number and the x86-64 arch: refused whole. */
  x32?: boolean;
}

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const RET_EPERM = 0x00050000 | EPERM;
const X32_BIT = 0x40000000;
/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;

/** The ABIs a process of this machine can call the kernel through (its own and the 32-bit one). */
/** io_uring_setup, io_uring_enter and io_uring_register: one number in every ABI's table. */
const IO_URING = [425, 426, 427];

const ABIS: Record<string, Abi[]> = {
  x64: [
    { arch: 0xc000003e, denied: [248, 249, 250, 101, ...IO_URING], x32: true },
    { arch: 0x40000003, denied: [286, 287, 288, 26, ...IO_URING] },
  ],
  arm64: [
    { arch: 0xc00000b7, denied: [217, 218, 219, 117, ...IO_URING] },
    { arch: 0x40000028, denied: [309, 310, 311, 26, ...IO_URING] },
  ],
};

/**
 * The filter as bwrap reads it: per ABI, load the arch, skip to the next ABI unless it
 * matches, refuse the keyring calls, ptrace and io_uring, allow the rest; a call from any other ABI is refused.
 */
export function seccompProgram(abis: Abi[]): Insn[] {
  const sizes = abis.map((a) => 4 + (a.x32 ? 1 : 0) + a.denied.length);
  const deny = sizes.reduce((sum, n) => sum + n, 0);
  const prog: Insn[] = [];
  const toDeny = () => deny - prog.length - 1;
  abis.forEach((abi, i) => {
    prog.push({ code: LD_W_ABS, jt: 0, jf: 0, k: ARCH });
    prog.push({ code: JEQ_K, jt: 0, jf: sizes[i] - 2, k: abi.arch });
    prog.push({ code: LD_W_ABS, jt: 0, jf: 0, k: NR });
    if (abi.x32) prog.push({ code: JGE_K, jt: toDeny(), jf: 0, k: X32_BIT });
    for (const nr of abi.denied) prog.push({ code: JEQ_K, jt: toDeny(), jf: 0, k: nr });
    prog.push({ code: RET_K, jt: 0, jf: 0, k: RET_ALLOW });
  });
  prog.push({ code: RET_K, jt: 0, jf: 0, k: RET_EPERM });
  return prog;
}

/** The program's bytes (struct sock_filter[], this machine's byte order). */
export function encodeProgram(prog: Insn[]): Uint8Array {
  const bytes = new Uint8Array(prog.length * 8);
  const view = new DataView(bytes.buffer);
  const le = os.endianness() === 'LE';
  prog.forEach((insn, i) => {
    view.setUint16(i * 8, insn.code, le);
    view.setUint8(i * 8 + 2, insn.jt);
    view.setUint8(i * 8 + 3, insn.jf);
    view.setUint32(i * 8 + 4, insn.k, le);
  });
  return bytes;
}

/** This machine's filter, or null on an architecture whose numbers are not known here. */
export function seccompFilter(arch: string = process.arch): Uint8Array | null {
  const abis = ABIS[arch];
  return abis ? encodeProgram(seccompProgram(abis)) : null;
}
