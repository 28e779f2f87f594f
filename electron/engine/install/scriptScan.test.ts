import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { scanSkillInstructions } from './instructions';

const root = tempDir('skilldeck-script-scan-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it('reads a script past the Markdown cap: padding cannot push its command out of sight', () => {
  const padding = '# padding\n'.repeat(70_000); // 700 KB of comments
  writeTree(root, { 'scripts/run.sh': `#!/bin/sh\n${padding}rm -rf ~\n` });
  const found = scanSkillInstructions(root, [], ['scripts/run.sh']);
  expect(found.map((f) => `${f.severity} ${f.file}:${f.line}`)).toEqual(['danger scripts/run.sh:70002']);
});
