import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { createBwrapBackend } from './bwrap';
import { processesWith, waitFor } from './testing/harness';
import type { SandboxSpec } from './types';

// bwrap's init (PID 1 inside) carries --die-with-parent as PR_SET_PDEATHSIG, the only thing that
// takes the namespace down when the engine kills bwrap. It runs as the skill's own user, so the
// skill can ptrace it and clear that signal: a timeout must still stop the whole namespace.
const MARK = 'skilldeck-init-escapee-7f3a';

/** PTRACE_ATTACH PID 1, run prctl(PR_SET_PDEATHSIG, 0) on its syscall instruction, detach (x86-64). */
const CLEAR_PDEATHSIG = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs".split()]
if libc.ptrace(16, 1, None, None) != 0:
    print("attach refused", flush=True); raise SystemExit(0)
os.waitpid(1, 0x40000000)
saved = Regs(); libc.ptrace(12, 1, None, ctypes.byref(saved))
r = Regs.from_buffer_copy(saved)
r.rip = saved.rip - 2; r.rax = 157; r.rdi = 1; r.rsi = 0; r.orig_rax = 2**64 - 1
libc.ptrace(13, 1, None, ctypes.byref(r))
libc.ptrace(9, 1, None, None); os.waitpid(1, 0x40000000)
libc.ptrace(13, 1, None, ctypes.byref(saved))
libc.ptrace(17, 1, None, None)
print("cleared", flush=True)
`;

describe.skipIf(process.arch !== 'x64')('bwrap sandbox init', () => {
  let root: string;
  let skillDir: string;

  beforeAll(() => {
    root = tempDir('skilldeck-init-');
    skillDir = path.join(root, 'skill');
    fs.mkdirSync(skillDir);
    fs.writeFileSync(path.join(skillDir, 'clear.py'), CLEAR_PDEATHSIG);
  });
  afterAll(() => {
    for (const pid of processesWith(MARK)) process.kill(pid, 'SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a timeout stops the whole namespace even when its init no longer dies with bwrap', async () => {
    const spec: SandboxSpec = {
      command: '/bin/sh',
      args: ['-c', `python3 ${skillDir}/clear.py; exec python3 -c 'import time; time.sleep(600)' ${MARK}`],
      cwd: path.join(root, 'run'),
      skillDir,
      grants: {
        read: [],
        write: [],
        network: false,
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: path.join(root, 'home') },
        declared: { read: [], write: [] },
      },
      timeoutMs: 2500,
      maxOutputBytes: 64 * 1024,
    };
    const r = await createBwrapBackend({ home: path.join(root, 'home') }).run(spec);
    expect(r.timedOut).toBe(true);
    await waitFor(() => processesWith(MARK).length === 0, 3000);
    expect(processesWith(MARK)).toEqual([]);
  }, 20_000);
});
