import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The bundled unit-converter's own parser (skills/unit-converter/scripts/convert.mjs), run as
// the sandbox runs it: node with INPUT_JSON, no arguments.
const SCRIPT = path.join(__dirname, '../../../skills/unit-converter/scripts/convert.mjs');
const convert = (task: string) =>
  spawnSync(process.execPath, [SCRIPT], { env: { INPUT_JSON: JSON.stringify({ task }) }, encoding: 'utf8' });

describe('the bundled unit converter reads requests as people type them', () => {
  it.each([
    ['convert 5 miles to km, please!', '5 mi = 8.04672 km'],
    ['how many km is 5 miles? thanks', '5 mi = 8.04672 km'],
    ['5 miles in km 🙂', '5 mi = 8.04672 km'],
    ['3斤是多少公斤 🙂', '3 斤 = 1.5 kg'],
    ['1 mile to km 谢谢', '1 mi = 1.60934 km'],
    ['100華氏度是多少攝氏度', '100 °F = 37.7778 °C'],
  ])('%s', (task, expected) => {
    const r = convert(task);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(expected);
  });

  it('still says which unit it does not know', () => {
    const r = convert('5 smoots to km');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown unit "smoots"');
  });
});
