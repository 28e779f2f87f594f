// Refits the router's intent calibration (issue 10) on the dev half of the third-party dev set,
// its sampled 126-skill catalogs and the bundled skills' trigger evals, and prints the fit: the
// JSON for electron/engine/routing/data/calibration.json and what it does on each set. Never
// uses the held-out half. Run `npm run build:node` first; it takes a few minutes.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { fitDevCalibration, config } = createRequire(import.meta.url)(
  path.join(root, 'dist', 'node', 'routing-bench.cjs'),
);
const corpus = path.resolve(root, '..', 'shared', 'corpus', 'skills');
console.log(JSON.stringify(await fitDevCalibration(corpus, path.join(root, 'skills'), config), null, 2));
