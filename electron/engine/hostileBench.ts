/**
 * `npm run bench`: how long the engine takes over hostile or just huge input outside routing
 * (routing's pastes are in routing/bench.ts): a frontmatter nested or erring on every character,
 * a SKILL.md line that repeats a command word, a megabyte of stderr on one line, a model answer of
 * blank lines or a 200,000-line hunk. Each took seconds to hours once; each is linear now, about a
 * second at most (2 cores, November 2026).
 */
import type { RunResult } from '../../shared/contract';
import { firstDanger } from './install/instructions';
import { gatherEvidence } from './repair/evidence';
import { parseModelAnswer } from './repair/prompt';
import type { SkillSnapshot } from './repair/snapshot';
import { interpretSkill, type SkillLocation } from './skills/loadSkill';

const loc: SkillLocation = {
  dir: '/bench/hostile',
  fileName: 'SKILL.md',
  root: '/bench',
  source: 'user',
  hasAgentsDir: false,
  hasScriptsDir: false,
};
const skillMd = (extra: string) => `---\nname: hostile\ndescription: Hostile input.\n${extra}\n---\n# Body\n`;
const snapshot = { dir: '/bench/hostile', skillFile: 'SKILL.md', listing: ['SKILL.md'] } as SkillSnapshot;
const failedRun = (stderr: string) =>
  ({
    stderr,
    error: null,
    output: '',
    files: [],
    exit_code: 1,
    command: [],
  }) as Partial<RunResult> as RunResult;
const lines = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i)).join('\n');

const CASES: Record<string, () => unknown> = {
  frontmatter_nested_20k: () =>
    interpretSkill(loc, { skillMd: skillMd(`x: ${'['.repeat(20_000)}`), scriptsHasFiles: false }, 'linux'),
  frontmatter_quotes_120k: () =>
    interpretSkill(loc, { skillMd: skillMd(`x: ${'"'.repeat(120_000)}`), scriptsHasFiles: false }, 'linux'),
  danger_scan_curl_512k: () => firstDanger(`${'curl '.repeat(104_857)}\n`, 'SKILL.md'),
  danger_scan_wget_512k: () => firstDanger(`${'wget '.repeat(104_857)}\n`, 'SKILL.md'),
  stderr_one_line_1m: () =>
    gatherEvidence(failedRun(`${'#'.repeat(1_000_000)}\nbash: /etc/x: Permission denied`), snapshot),
  stderr_capitals_200k: () =>
    gatherEvidence(failedRun(`${'A'.repeat(200_000)}\nAPI_TOKEN is not set`), snapshot),
  answer_blank_lines_1m: () =>
    parseModelAnswer(
      `${'\n'.repeat(1_000_000)}ROOT_CAUSE: x\n\`\`\`diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\`\`\`\n`,
    ),
  answer_hunk_200k_lines: () =>
    parseModelAnswer(
      `\`\`\`diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n${lines(200_000, (i) => `+row ${i}`)}\n\`\`\`\n`,
    ),
};

/** Milliseconds per case, the best of `runs` (the first run compiles the patterns). */
export function benchHostile(runs = 3): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, run] of Object.entries(CASES)) {
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      run();
      best = Math.min(best, performance.now() - start);
    }
    out[name] = Math.round(best * 10) / 10;
  }
  return out;
}
