#!/usr/bin/env node
// `npx skilldeck …` in a checkout: run the bundled CLI, rebuilding it first when a source or data
// file is newer than the bundle (esbuild takes ~100 ms), so the command never runs stale code.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist', 'node', 'cli.cjs');

function newestSource(dir, newest = 0) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(full, newest);
    else if (/\.(?:ts|json|tsv|txt)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

function bundleTime() {
  try {
    return fs.statSync(bundle).mtimeMs;
  } catch {
    return -1;
  }
}

const sourcesPresent = fs.existsSync(path.join(root, 'electron', 'cli.ts'));
if (sourcesPresent) {
  const built = bundleTime();
  if (
    built < 0 ||
    newestSource(path.join(root, 'electron')) > built ||
    newestSource(path.join(root, 'shared')) > built
  ) {
    const { buildNode } = await import(pathToFileURL(path.join(root, 'scripts', 'build-node.mjs')).href);
    await buildNode();
  }
}
createRequire(import.meta.url)(bundle);
