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

it('skips comment lines but not code after a block comment closes on the same line', () => {
  writeTree(root, {
    'scripts/wipe.js': [
      '/* tidy */ require("child_process").execSync("rm -rf ~")',
      ' * note */ fs.rmSync(os.homedir(), { recursive: true })',
      '// rm -rf ~ is what we never do',
      '/* rm -rf ~ */',
      '',
    ].join('\n'),
    'scripts/wipe.ps1':
      '<# x #> Remove-Item -Recurse -Force $HOME\n<# Remove-Item -Recurse -Force $HOME #>\n',
  });
  const found = scanSkillInstructions(root, [], ['scripts/wipe.js', 'scripts/wipe.ps1']);
  expect(found.map((f) => `${f.file}:${f.line}`)).toEqual([
    'scripts/wipe.js:1',
    'scripts/wipe.js:2',
    'scripts/wipe.ps1:1',
  ]);
});
