// Refits the router's intent calibration on the dev half of the third-party dev set (issue 10)
// and prints the JSON for electron/engine/routing/data/calibration.json. Never uses the
// held-out half. Run `npm run build:node` first.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { fitDevCalibration, config } = createRequire(import.meta.url)(
  path.join(root, 'dist', 'node', 'routing-bench.cjs'),
);
const corpus = path.resolve(root, '..', 'shared', 'corpus', 'skills');
console.log(JSON.stringify(await fitDevCalibration(corpus, config), null, 2));
