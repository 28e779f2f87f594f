// Bundled by the tests (esbuild) and run as a throwaway non-root user:
// `runuser -u USER -- node driver.cjs plans.json` prints the outcomes as JSON.
import fs from 'node:fs';
import { runPlans, type ProbePlan } from './planRunner';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: driver.cjs PLANS.json\n');
  process.exit(2);
}
const plans = JSON.parse(fs.readFileSync(file, 'utf8')) as ProbePlan[];
runPlans(plans).then(
  (outcomes) => process.stdout.write(JSON.stringify(outcomes)),
  (error: unknown) => {
    process.stderr.write(`driver failed: ${String(error)}\n`);
    process.exit(1);
  },
);
