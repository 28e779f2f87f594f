// Builds the Node side: Electron main + preload (CommonJS, electron external) and the CLI
// (which also hosts browser mode). The renderer is built by Vite (`npm run build:renderer`).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  // ws tries these optional native speed-ups and falls back without them.
  external: ['electron', 'bufferutil', 'utf-8-validate'],
};

/**
 * The router's lexical tables (issue 10) are read at run time, lazily, from `routing-data/`
 * beside each bundle; the bench's dev set from `routing-quality/` beside the bench bundle.
 */
function copyRoutingData() {
  const data = path.join(root, 'electron', 'engine', 'routing', 'data');
  for (const out of ['dist/node', 'dist/electron']) {
    const dest = path.join(root, out, 'routing-data');
    fs.mkdirSync(dest, { recursive: true });
    for (const file of fs.readdirSync(data)) {
      if (/\.(tsv|txt)$/.test(file)) fs.copyFileSync(path.join(data, file), path.join(dest, file));
    }
  }
  const quality = path.join(root, 'electron', 'engine', 'routing', 'quality', 'corpus');
  fs.cpSync(quality, path.join(root, 'dist', 'node', 'routing-quality'), { recursive: true });
}

export async function buildNode() {
  copyRoutingData();
  await Promise.all([
    build({ ...common, entryPoints: ['electron/cli.ts'], outfile: 'dist/node/cli.cjs' }),
    // `npm run bench` measures the router in-process through this bundle (never shipped in the app).
    build({
      ...common,
      entryPoints: ['electron/engine/routing/bench.ts'],
      outfile: 'dist/node/routing-bench.cjs',
    }),
    // …and the sandbox's overhead per run through this one.
    build({
      ...common,
      entryPoints: ['electron/engine/execution/sandbox/bench.ts'],
      outfile: 'dist/node/sandbox-bench.cjs',
    }),
    // …and the engine over hostile or huge input (a nested frontmatter, a megabyte of stderr).
    build({
      ...common,
      entryPoints: ['electron/engine/hostileBench.ts'],
      outfile: 'dist/node/hostile-bench.cjs',
    }),
    // The scripted OpenAI-compatible server as a process (CLI tests, graders): scripts/model-server.mjs.
    build({
      ...common,
      entryPoints: ['electron/testing/modelServerCli.ts'],
      outfile: 'dist/node/model-server.cjs',
    }),
    build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs' }),
    // A sandboxed preload may only require('electron'): everything else is bundled in.
    build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs' }),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildNode();
}
