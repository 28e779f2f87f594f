import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { skillMd, tempDir, writeTree } from '../testing/fixtures';

// DESIGN §1: the engine is plain Node. Bundle it with `electron` made unresolvable and run
// it in a bare `node` process: any import of Electron, direct or indirect, fails this test.
const root = tempDir();
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it('runs under plain Node with no electron module', async () => {
  const outfile = path.join(root, 'engine.cjs');
  await build({
    entryPoints: [path.join(__dirname, 'index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
    plugins: [
      {
        name: 'forbid-electron',
        setup(b) {
          b.onResolve({ filter: /^electron(\/.*)?$/ }, (args) => ({
            errors: [{ text: `electron imported by ${args.importer}` }],
          }));
        },
      },
    ],
  });
  writeTree(root, { 'skills/hello/SKILL.md': skillMd('hello', 'Says hello under plain Node.') });
  const script = `
    const { createEngine } = require(${JSON.stringify(outfile)});
    createEngine({ home: ${JSON.stringify(path.join(root, 'home'))}, userHome: ${JSON.stringify(root)},
      workspace: ${JSON.stringify(root)}, skillDirs: [${JSON.stringify(path.join(root, 'skills'))}], noDefaultPaths: true })
      .then((engine) => console.log(JSON.stringify(engine.skills.list().skills.map((s) => s.name))));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: root });
  expect(JSON.parse(stdout)).toEqual(['hello']);
});
