import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, tempDir } from '../../../testing/fixtures';
import { scriptSkill } from '../testSkills';

// A run is root of its own user namespace, and so may ptrace every process in its PID
// namespace, bwrap's init (PID 1) too. PTRACE_ATTACH stops that init; when the tracer exits
// the stop stays, the init never reaps the script, and a run that had finished in a second
// read "Timed out after 120 s". The filter refuses ptrace, as Docker's profile did.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const ATTACH = `python3 - <<'PY'
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
r = libc.ptrace(16, 1, 0, 0)  # PTRACE_ATTACH to bwrap's init
print("attach:", "ok" if r == 0 else errno.errorcode[ctypes.get_errno()])
PY
echo finished`;

describe.skipIf(process.platform !== 'linux')('bwrap: ptrace', () => {
  it("a script cannot ptrace the sandbox's init, and its run ends when the script does", async () => {
    const skill = scriptSkill(tempDir('skilldeck-ptrace-'), 'tracer', ATTACH, [
      'execution_policy: { approval: auto, timeout: 8 }',
    ]);
    const { engine } = await engines.open({ skillDirs: [skill], noDefaultPaths: true });
    const result = await engine.execution.start({ id: skill, task: 'attach' }).done;
    expect(result.sandbox).toBe('bwrap');
    expect(result.output).toContain('attach: EPERM');
    expect(result.status).toBe('success');
    expect(result.duration_ms).toBeLessThan(6_000);
  }, 20_000);
});
