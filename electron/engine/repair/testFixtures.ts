/** Small real skills for the repair tests, built in throwaway folders (never the real home). */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir, writeTree } from '../../testing/fixtures';

export const skillDoc = (name: string, description: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;

/** Writes a skill folder `<root>/skills/<name>` and a work folder `<root>/work`; returns both. */
export function makeSkill(name: string, files: Record<string, string>, work: Record<string, string> = {}) {
  const root = tempDir('skilldeck-repair-');
  const dir = path.join(root, 'skills', name);
  writeTree(dir, files);
  const cwd = path.join(root, 'work');
  fs.mkdirSync(cwd, { recursive: true });
  writeTree(cwd, work);
  return { root, dir, cwd, home: path.join(root, 'home') };
}

/** Every file of a folder as bytes (relative path → Buffer), for byte-for-byte comparisons. */
export function snapshotBytes(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) out[r] = Buffer.from(`link:${fs.readlinkSync(path.join(abs, entry.name))}`);
      else if (entry.isDirectory()) walk(path.join(abs, entry.name), r);
      else out[r] = fs.readFileSync(path.join(abs, entry.name));
    }
  };
  walk(dir, '');
  return out;
}

/** Fixture 1: SKILL.md points at `references/style.md`, which was renamed `references/style-guide.md`. */
export const renamedReference = () =>
  makeSkill('release-notes', {
    'SKILL.md': skillDoc(
      'release-notes',
      'Writes release notes from a list of changes. Use when the user asks for release notes.',
      '# Release notes\n\nBefore writing, read the house style in [the style guide](references/style.md)\nand follow it exactly.\n',
    ),
    'references/style-guide.md': '# Style\n\nPast tense, one line per change, no emoji.\n',
    'references/changelog-template.md': '## {{version}}\n',
  });

/** Fixture 2: the script requires `--column`, but the executor passes the column in INPUT_JSON. */
export const missingArgument = () =>
  makeSkill(
    'column-sum',
    {
      'SKILL.md': skillDoc(
        'column-sum',
        'Adds up one column of a CSV file. Use when the user asks for the total of a column.',
        '# Column sum\n\nRun `scripts/column_sum.py` with `file` and `column` in INPUT_JSON.\n',
      ),
      'scripts/column_sum.py': `#!/usr/bin/env python3
"""Sums one column of a CSV file."""
import argparse
import csv
import json
import os

parser = argparse.ArgumentParser(prog="column_sum.py")
parser.add_argument("--column", required=True, help="the column to add up")
args = parser.parse_args()
data = json.loads(os.environ["INPUT_JSON"])
with open(data["file"], newline="") as f:
    rows = list(csv.DictReader(f))
print(f"total {args.column}: {sum(float(r[args.column]) for r in rows):g}")
`,
    },
    { 'data.csv': 'date,amount\n2024-01-01,10\n2024-01-02,32.5\n' },
  );

/** Fixture 3: the CSV's header became `Amount`; the script still reads `row["amount"]`. */
export const keyErrorScript = () =>
  makeSkill(
    'expense-total',
    {
      'SKILL.md': skillDoc(
        'expense-total',
        'Totals the expenses in a CSV export. Use when the user asks how much was spent.',
        '# Expense total\n\nRun `scripts/total.py`; INPUT_JSON holds `file`.\n',
      ),
      'scripts/total.py': `#!/usr/bin/env python3
import csv
import json
import os

data = json.loads(os.environ["INPUT_JSON"])
with open(data["file"], newline="") as f:
    rows = list(csv.DictReader(f))
print(f"read {len(rows)} rows from {data['file']}")
total = 0.0
for row in rows:
    total += float(row["amount"])
print(f"total spent: {total:.2f}")
`,
    },
    { 'expenses.csv': 'Date,Amount,Note\n2024-01-01,12.50,lunch\n2024-01-02,7.25,bus\n' },
  );

/** The scripted model's fix for fixture 3. */
export const KEY_ERROR_FIX = `ROOT_CAUSE: The export's header is now "Amount" but the script reads "amount".
EXPECTED_EFFECT: The script finds the column and prints the total.
\`\`\`diff
--- a/scripts/total.py
+++ b/scripts/total.py
@@ -10,4 +10,4 @@
 total = 0.0
 for row in rows:
-    total += float(row["amount"])
+    total += float(row["Amount"])
 print(f"total spent: {total:.2f}")
\`\`\`
`;

/** A scripted `complete` that answers from a list, and records every prompt it was given. */
export function scriptedModel(answers: string[]) {
  const prompts: { system: string; user: string }[] = [];
  return {
    prompts,
    complete: async (prompt: { system: string; user: string }) => {
      prompts.push(prompt);
      const answer = answers[prompts.length - 1];
      if (answer === undefined) throw new Error(`the scripted model has no answer #${prompts.length}`);
      return answer;
    },
  };
}

/** A `complete` that fails the test if it is ever called. */
export const noModel = async (): Promise<string> => {
  throw new Error('the model must not be asked for this failure');
};
