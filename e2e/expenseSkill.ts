import { createTwoFilesPatch } from 'diff';
import { startModelServer } from '../electron/testing/modelServer';

/** A skill that nearly works: the export's header became `Amount`, the script still reads `amount`. */
export const SKILL_MD = `---
name: expense-total
description: Totals the expenses in the bundled CSV export. Use when the user asks how much was spent.
---
# Expense total

Run \`scripts/total.py\`. It reads \`references/expenses.csv\` and prints the total.
`;
const SCRIPT = `#!/usr/bin/env python3
"""Totals the expenses in the skill's CSV export."""
import csv
import os

path = os.path.join(os.environ["SKILL_PATH"], "references", "expenses.csv")
with open(path, newline="") as f:
    rows = list(csv.DictReader(f))
print(f"read {len(rows)} rows")

total = 0.0
for row in rows:
    total += float(row["amount"])
print(f"total spent: {total:.2f}")
`;
export const SEED = {
  'expense-total/SKILL.md': SKILL_MD,
  'expense-total/skill.yaml': `spec:
  type: script
cost_hint: low
permissions:
  filesystem: { read: [], write: [] }
  network: { outbound: false }
  environment: { allow: [] }
execution_policy:
  sandbox: os
  approval: ask
  timeout: 30
entrypoints:
  - name: total
    path: scripts/total.py
    description: Prints the total of the Amount column.
`,
  'expense-total/scripts/total.py': SCRIPT,
  'expense-total/references/expenses.csv': 'Date,Amount,Note\n2024-01-01,12.50,lunch\n2024-01-02,7.25,bus\n',
};

/**
 * The scripted model's answer (DESIGN §5: a unified diff in a fenced block, `a/…` / `b/…`):
 * three hunks in two files. Only the last one (`row["Amount"]`) is needed; the SKILL.md note
 * and the docstring are not, so the run passes with the docstring hunk turned down.
 */
const patchOf = (file: string, before: string, after: string) => {
  const text = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, '', '', { context: 3 });
  return text.slice(text.indexOf('--- '));
};
export const FIXED_DOC = SKILL_MD.replace('prints the total.', 'prints the total of the `Amount` column.');
const FIXED_SCRIPT = SCRIPT.replace(
  `"""Totals the expenses in the skill's CSV export."""`,
  `"""Totals the expenses in the skill's CSV export (Amount column)."""`,
).replace('row["amount"]', 'row["Amount"]');
const MODEL_FIX = `ROOT_CAUSE: The export's header is now "Amount" but the script reads "amount".
EXPECTED_EFFECT: The script finds the column and prints the total.
\`\`\`diff
${patchOf('SKILL.md', SKILL_MD, FIXED_DOC)}${patchOf('scripts/total.py', SCRIPT, FIXED_SCRIPT)}\`\`\`
`;

/** The model fixes the KeyError when asked to repair it; `plain` answers anything else (or, null, fails). */
export const scriptedModel = (plain: string | null) =>
  startModelServer({
    rules: [{ when: { contains: "KeyError: 'amount'" }, reply: { text: MODEL_FIX } }],
    ...(plain === null ? {} : { fallback: { text: plain } }),
  });
