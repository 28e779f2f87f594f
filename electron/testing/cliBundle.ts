import path from 'node:path';
import { build } from 'esbuild';

/**
 * Bundle the CLI into `outfile`, as scripts/build-node.mjs does for dist/, so a test runs the
 * real `skilldeck` process from the current sources without touching dist/.
 */
export async function buildCliBundle(outfile: string): Promise<string> {
  await build({
    entryPoints: [path.join(__dirname, '..', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    external: ['electron', 'bufferutil', 'utf-8-validate'],
  });
  return outfile;
}
