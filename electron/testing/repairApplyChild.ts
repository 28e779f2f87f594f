/**
 * A child process that applies one repair revision (the crash test kills it with SIGKILL
 * mid-apply). Arguments: home, skill folder, content hash, JSON of the changes, "bundled"?
 */
import { RevisionStore } from '../engine/repair/revisions';

const [home, skillDir, contentHash, changes, bundled] = process.argv.slice(2);
new RevisionStore(home)
  .apply({
    skill: 'mixed',
    skillDir,
    contentHash,
    changes: JSON.parse(changes) as { path: string; before: string | null; after: string }[],
    bundled: bundled === 'bundled',
    proposal: { id: null, source: 'user', error_signature: 'e', root_cause: 'r', expected_effect: 'x' },
  })
  .then(
    () => process.stdout.write('applied\n'),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
