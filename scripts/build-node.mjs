// Builds the Node side: Electron main + preload (CommonJS, electron external) and the CLI
// (which also hosts browser mode). The renderer is built by Vite (`npm run build:renderer`).
import { build } from 'esbuild';
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

export async function buildNode() {
  await Promise.all([
    build({ ...common, entryPoints: ['electron/cli.ts'], outfile: 'dist/node/cli.cjs' }),
    // `npm run bench` measures the router in-process through this bundle (never shipped in the app).
    build({
      ...common,
      entryPoints: ['electron/engine/routing/bench.ts'],
      outfile: 'dist/node/routing-bench.cjs',
    }),
    build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs' }),
    // A sandboxed preload may only require('electron'): everything else is bundled in.
    build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs' }),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildNode();
}
