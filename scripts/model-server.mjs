#!/usr/bin/env node
// The scripted OpenAI-compatible server as a process (electron/testing/modelServerCli.ts):
//   node scripts/model-server.mjs [--port N] [--record requests.jsonl] script.json
// Bundles the server first (esbuild, a few ms: it has no dependencies), so it never runs stale code.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'dist', 'node', 'model-server.cjs');
await build({
  absWorkingDir: root,
  entryPoints: ['electron/testing/modelServerCli.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
