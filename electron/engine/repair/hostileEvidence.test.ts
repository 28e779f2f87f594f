import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../shared/contract';
import { gatherEvidence } from './evidence';
import type { SkillSnapshot } from './snapshot';

// A failed run's stderr is the script's to write, up to the 1 MiB output cap: a progress bar
// without newlines, a dumped blob, base64. Reading it for repair must not take longer than the run.
const skill = {
  dir: '/skills/hostile',
  skillFile: 'SKILL.md',
  listing: ['SKILL.md', 'scripts/run.py'],
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
