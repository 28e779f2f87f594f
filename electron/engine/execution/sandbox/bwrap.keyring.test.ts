import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDriver, openFixture, type ProbeFixture } from './testing/harness';
import type { ProbeOutcome } from './testing/planRunner';

// The kernel keyring is not a file: no mask hides it, and a run inherits the engine's session
// keyring. A desktop login (pam_keyinit) links the user keyring there, where systemd and gdm
// cache disk passphrases and Kerberos keeps tickets. The engine here runs under a session
// keyring holding a secret, as it would after such a login; the run must not read it.
const SECRET = `keyring-secret-${process.pid}`;

/** [add_key, keyctl] syscall numbers. */
const NR = `{"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]`;
const PRELUDE = `import ctypes, errno, os, platform, sys\nlibc = ctypes.CDLL(None, use_errno=True)\nADD_KEY, KEYCTL = ${NR}\n`;

/** Joins a fresh session keyring, puts the secret in it, then becomes the engine. */
const LOGIN = `${PRELUDE}
if libc.syscall(KEYCTL, 1, b"skilldeck-test-session") < 0:  # KEYCTL_JOIN_SESSION_KEYRING
    sys.exit("join: " + errno.errorcode[ctypes.get_errno()])
data = ${JSON.stringify(SECRET)}.encode()
if libc.syscall(ADD_KEY, b"user", b"skilldeck-probe", data, len(data), -3) < 0:
    sys.exit("add_key: " + errno.errorcode[ctypes.get_errno()])
os.execv(sys.argv[1], sys.argv[1:])
`;

/** Inside: look the key up through the session keyring and read it. */
const PROBE = `${PRELUDE}
key = libc.syscall(KEYCTL, 10, -3, b"user", b"skilldeck-probe", 0)  # KEYCTL_SEARCH
if key < 0:
    sys.exit("search: " + errno.errorcode[ctypes.get_errno()])
buf = ctypes.create_string_buffer(200)
n = libc.syscall(KEYCTL, 11, key, buf, 200)  # KEYCTL_READ
print(buf.raw[:n].decode() if n >= 0 else "read: " + errno.errorcode[ctypes.get_errno()])
`;

describe('bwrap: the kernel keyring', () => {
  let fx: ProbeFixture;
  let outcome: ProbeOutcome;

  beforeAll(async () => {
    fx = await openFixture();
    const script = path.join(fx.skillDir, 'scripts', 'probe_keyring.py');
    fs.writeFileSync(script, PROBE);
    const login = path.join(fx.root, 'login.py');
    fs.writeFileSync(login, LOGIN);
    const plans = path.join(fx.root, 'plans.json');
    fs.writeFileSync(plans, JSON.stringify([{ ...fx.plan('env', 'python'), id: 'keyring', script }]));
    const run = await execa('python3', [login, process.execPath, await buildDriver(), plans], {
      reject: false,
    });
    if (run.exitCode !== 0) throw new Error(`engine under a session keyring failed: ${run.stderr}`);
    [outcome] = JSON.parse(run.stdout) as ProbeOutcome[];
  }, 60_000);
  afterAll(async () => fx?.close());

  it("a run cannot read a key from the engine's session keyring", () => {
    const r = outcome.result!;
    expect(r.tier).toBe('bwrap');
    expect(r.stdout).not.toContain(SECRET);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/^search: (ENOSYS|EPERM|ENOKEY|EACCES)/m);
  });
});
