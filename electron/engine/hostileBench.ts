/**
 * `npm run bench`: how long the engine takes over hostile or just huge input outside routing
 * (routing's pastes are in routing/bench.ts): a frontmatter nested or erring on every character,
 * or a megabyte long; a SKILL.md line that repeats a command word; a megabyte of stderr on one
 * line, or a line built against one of the patterns that read stderr; a model answer of blank
 * lines, a 200,000-line hunk or a line built against its patterns. Each took seconds to hours
 * once; each is linear now, about a second at most (2 cores, November 2026).
 */
import type { RunResult } from '../../shared/contract';
import { scanStderr } from './execution/sandbox/stderrScan';
import { firstDanger } from './install/instructions';
import { gatherEvidence } from './repair/evidence';
import { otherPatchForm } from './repair/patchForms';
import { parseModelAnswer } from './repair/prompt';
import { wholeFileForm } from './repair/wholeFile';
import type { SkillSnapshot } from './repair/snapshot';
import { interpretSkill, type SkillLocation } from './skills/loadSkill';
import { parseFrontmatter } from './skills/validator';

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
/** `unit` repeated to about `bytes` characters. */
const fill = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));
const MiB = 1024 * 1024;
const validate = (skillMd: string) => {
  try {
    return parseFrontmatter(skillMd);
  } catch (e) {
    return e;
  }
};
const searchBlock = '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n';

const CASES: Record<string, () => unknown> = {
  frontmatter_nested_20k: () =>
    interpretSkill(loc, { skillMd: skillMd(`x: ${'['.repeat(20_000)}`), scriptsHasFiles: false }, 'linux'),
  // Over the 64 KiB cap: refused unread. The 60k case is read, and fails, in the `yaml` package.
  frontmatter_quotes_120k: () =>
    interpretSkill(loc, { skillMd: skillMd(`x: ${'"'.repeat(120_000)}`), scriptsHasFiles: false }, 'linux'),
  frontmatter_quotes_60k: () =>
    interpretSkill(loc, { skillMd: skillMd(`x: ${'"'.repeat(60_000)}`), scriptsHasFiles: false }, 'linux'),
  frontmatter_fields_1m: () =>
    interpretSkill(
      loc,
      { skillMd: skillMd(lines(16_384, (i) => `k${i}: ${'v'.repeat(56)}`)), scriptsHasFiles: false },
      'linux',
    ),
  validate_quotes_120k: () => validate(skillMd(`x: ${'"'.repeat(120_000)}`)),
  validate_quotes_60k: () => validate(skillMd(`x: ${'"'.repeat(60_000)}`)),
  danger_scan_curl_512k: () => firstDanger(`${'curl '.repeat(104_857)}\n`, 'SKILL.md'),
  danger_scan_wget_512k: () => firstDanger(`${'wget '.repeat(104_857)}\n`, 'SKILL.md'),
  stderr_one_line_1m: () =>
    gatherEvidence(failedRun(`${'#'.repeat(1_000_000)}\nbash: /etc/x: Permission denied`), snapshot),
  stderr_capitals_200k: () =>
    gatherEvidence(failedRun(`${'A'.repeat(200_000)}\nAPI_TOKEN is not set`), snapshot),
  stderr_progress_bar_cr_1m: () =>
    gatherEvidence(failedRun(`${fill('50%|###\r', MiB)}\nbash: /etc/x: Permission denied`), snapshot),
  stderr_cannot_handle_1m: () => gatherEvidence(failedRun(fill('cannot handle ', MiB)), snapshot),
  stderr_node_frame_parens_1m: () =>
    gatherEvidence(failedRun(`RangeError: x\n    at ${fill(' (', MiB)}`), snapshot),
  stderr_python_frame_cr_1m: () =>
    gatherEvidence(failedRun(`  File "x${fill('", line 1, in f', MiB)}\r50%`), snapshot),
  stderr_shell_error_cr_1m: () => gatherEvidence(failedRun(`${fill('a.sh: 1: x', MiB)}\rx`), snapshot),
  stderr_invalid_choice_1m: () =>
    gatherEvidence(failedRun(fill("invalid choice: '' (choose from ", MiB)), snapshot),
  sandbox_wget_connecting_1m: () => scanStderr(`${fill('Connecting to x (', MiB)}: Connection refused`),
  sandbox_wget_resolving_1m: () => scanStderr(`${fill('Resolving x (', MiB)}: Name or service not known`),
  sandbox_cannot_open_1m: () => scanStderr(`${fill('cannot open ', MiB)}/x: Permission denied`),
  sandbox_python_open_1m: () =>
    scanStderr(`    f = ${fill('open(,"', MiB)}\nPermissionError: [Errno 13] Permission denied: '/x'`),
  answer_blank_lines_1m: () =>
    parseModelAnswer(
      `${'\n'.repeat(1_000_000)}ROOT_CAUSE: x\n\`\`\`diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\`\`\`\n`,
    ),
  answer_hunk_200k_lines: () =>
    parseModelAnswer(
      `\`\`\`diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n${lines(200_000, (i) => `+row ${i}`)}\n\`\`\`\n`,
    ),
  answer_file_name_blanks_1m: () =>
    otherPatchForm(`*** Begin Patch\n*** Update File: a${fill(' ', MiB)}b\n@@\n-x\n+y\n*** End Patch\n`),
  answer_asterisks_above_search_1m: () => otherPatchForm(`x${fill('*', MiB)}x\n${searchBlock}`),
  answer_unclosed_fences_1m: () => wholeFileForm(fill('```x\n', MiB), new Map([['a', 'a\n']])),
  answer_whole_file_blocks_1m: () =>
    wholeFileForm(fill('a/b.py\n```\n...\n```\n', MiB), new Map([['a/b.py', 'a\nb\nc\n']])),
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
