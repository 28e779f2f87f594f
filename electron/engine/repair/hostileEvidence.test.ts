import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../shared/contract';
import { gatherEvidence } from './evidence';
import type { SkillSnapshot } from './snapshot';

// A failed run's stderr is the script's to write, up to the 1 MiB output cap: a progress bar
// without newlines, a dumped blob, base64. Reading it for repair must not take longer than the run.
const skill = {
  dir: '/skills/hostile',
  skillFile: 'SKILL.md',
  listing: ['SKILL.md', 'scripts/run.py', 'scripts/run.sh'],
  texts: new Map<string, string>(),
  links: new Set<string>(),
  executables: new Set<string>(),
} as Partial<SkillSnapshot> as SkillSnapshot;

const failed = (stderr: string): RunResult => ({
  run_id: 'r1',
  skill: 'hostile',
  skill_id: '/skills/hostile',
  status: 'failure',
  output: '',
  error: null,
  sandbox: 'process',
  duration_ms: 1,
  exit_code: 1,
  command: ['python3', 'scripts/run.py'],
  cwd: null,
  stderr,
  truncated: false,
  files: [],
  violations: [],
  fallback_used: false,
  timeline: [],
});

describe('evidence from a huge stderr', () => {
  it('finds the failure after a one-line megabyte', () => {
    // Three line patterns were tried from every character of a long line: hours for this one.
    const stderr = [
      `progress ${'#'.repeat(1_000_000)}`,
      'bash: /etc/app.conf: Permission denied',
      'curl: (7) Failed to connect: Connection refused',
      'error: this tool only reads CSV files',
    ].join('\n');
    const evidence = gatherEvidence(failed(stderr), skill);
    expect(evidence.permission).toBe('bash: /etc/app.conf: Permission denied');
    expect(evidence.network).toBe('curl: (7) Failed to connect: Connection refused');
    expect(evidence.capability).toBe('error: this tool only reads CSV files');
  });

  it('reads an unset variable after a run of capitals (base64)', () => {
    const stderr = `${'A'.repeat(200_000)}\nAPI_TOKEN is not set\n`;
    expect(gatherEvidence(failed(stderr), skill).envVars).toEqual(['API_TOKEN']);
  });
});

describe('evidence from lines built against its patterns', () => {
  // Each of these made one pattern rescan a long line from every repeat of its first words:
  // seconds at 200 KB, hours at the 1 MiB output cap. Each must read in one pass, and still
  // find what ordinary lines beside them say.
  const timed = (stderr: string) => {
    const started = performance.now();
    const evidence = gatherEvidence(failed(stderr), skill);
    return { evidence, ms: performance.now() - started };
  };

  it('reads a capability line after a line of "cannot handle " that names no file', () => {
    const { evidence, ms } = timed(`${'cannot handle '.repeat(15_000)}\nerror: cannot process xlsx files`);
    expect(ms).toBeLessThan(1000);
    expect(evidence.capability).toBe('error: cannot process xlsx files');
  });

  it('reads past a progress bar of carriage returns', () => {
    // The `m` flag starts a line after every lone CR: `^[^\n]*` then ran to the line's end from each.
    const bar = Array.from({ length: 50_000 }, (_, i) => `${i % 100}%|###`).join('\r');
    const { evidence, ms } = timed(
      [
        bar,
        'bash: /etc/app.conf: Permission denied',
        'curl: (6) Could not resolve host: example.com',
        'error: this tool only reads CSV files',
      ].join('\n'),
    );
    expect(ms).toBeLessThan(1000);
    expect(evidence.permission).toBe('bash: /etc/app.conf: Permission denied');
    expect(evidence.network).toBe('curl: (6) Could not resolve host: example.com');
    expect(evidence.capability).toBe('error: this tool only reads CSV files');
  });

  it('reads a Node stack after a frame line of " (" that never ends in :line:column', () => {
    const stderr = [
      'TypeError: boom',
      '    at main (/skills/hostile/scripts/run.js:3:5)',
      'RangeError: noise',
      `    at ${' ('.repeat(100_000)}`,
    ].join('\n');
    const { evidence, ms } = timed(stderr);
    expect(ms).toBeLessThan(1000);
    expect(evidence.trace).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(evidence.trace?.frames).toEqual([{ file: '/skills/hostile/scripts/run.js', line: 3 }]);
  });

  it('reads a Python frame after a frame line cut by a lone carriage return', () => {
    // `.` stops at a lone CR: `(?:, in .+)?$` failed there from every `", line N, in `.
    const stderr = [
      `  File "x${'", line 1, in f'.repeat(15_000)}\r50%`,
      '  File "/skills/hostile/scripts/run.py", line 3',
      '    x = (',
      '        ^',
      "SyntaxError: '(' was never closed",
    ].join('\n');
    const { evidence, ms } = timed(stderr);
    expect(ms).toBeLessThan(1000);
    expect(evidence.trace).toMatchObject({ type: 'SyntaxError', message: "'(' was never closed" });
    expect(evidence.trace?.skillFrame).toEqual({
      file: '/skills/hostile/scripts/run.py',
      line: 3,
      skillPath: 'scripts/run.py',
    });
  });

  it("reads a shell script's error after a line of `x.sh: 1: ` cut by a lone carriage return", () => {
    const stderr = [
      '/skills/hostile/scripts/run.sh: line 4: N: unbound variable',
      `${'a.sh: 1: x'.repeat(20_000)}\rx`,
    ].join('\n');
    const { evidence, ms } = timed(stderr);
    expect(ms).toBeLessThan(1000);
    expect(evidence.trace).toMatchObject({ type: 'error', message: 'N: unbound variable' });
    expect(evidence.trace?.skillFrame).toMatchObject({ line: 4, skillPath: 'scripts/run.sh' });
  });

  it("reads argparse's invalid choice after a line of openings without a closing parenthesis", () => {
    const stderr = [
      "invalid choice: '' (choose from ".repeat(16_000),
      "run.py: error: argument fmt: invalid choice: 'xlsx' (choose from 'csv', 'json')",
    ].join('\n');
    const { evidence, ms } = timed(stderr);
    expect(ms).toBeLessThan(1000);
    expect(evidence.usage?.invalidChoice).toEqual({ value: 'xlsx', choices: ['csv', 'json'] });
  });
});
