// Keystroke → repainted score panel, in Chromium over browser mode, with the third-party corpus
// loaded (issue 4, "Speed": ≤ 50 ms). The renderer marks each keystroke and measures after the
// panel commits and after the next frame painted; this reads `window.__skilldeckPerf`.
// Standalone: `npm run build:node && npx vite build && node bench/keystroke.mjs`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { findBrowser } from '../scripts/find-browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUERIES = [
  'organize my invoices from last month',
  '帮我整理发票',
  'summarize this csv of sales by region',
  'convert this pdf to plain text',
];

/** `skilldeck serve` on a free port with `tmp` as its homes; resolves with the tokened URL. */
export async function serve(tmp, skillDirs) {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'dist', 'node', 'cli.cjs'),
      'serve',
      '--port',
      '0',
      ...skillDirs.flatMap((d) => ['--skills', d]),
    ],
    {
      env: { ...process.env, HOME: path.join(tmp, 'user-home'), SKILLDECK_HOME: path.join(tmp, 'home') },
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 120_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null;
};

/** Types each query one key at a time (`delayMs` apart) and summarizes the samples. */
export async function benchKeystroke({
  corpusDir = path.join(root, '..', 'shared', 'corpus', 'skills'),
  delayMs = 80,
} = {}) {
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('no Chromium (see scripts/find-browser.mjs)');
  if (!fs.existsSync(path.join(root, 'dist', 'renderer', 'index.html')))
    throw new Error('build the renderer first');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-'));
  fs.mkdirSync(path.join(tmp, 'user-home'));
  const skillDirs = fs.existsSync(corpusDir) ? [corpusDir] : [];
  const { child, url } = await serve(tmp, skillDirs);
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--headless'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${url}#chat`);
    await page.locator('html[data-app-state="ready"]').waitFor({ state: 'attached', timeout: 120_000 });
    const composer = page.getByTestId('composer');
    // The first route after start builds the index; warm it up and drop those samples.
    await composer.pressSequentially('warm up', { delay: delayMs });
    await page.waitForFunction(() => globalThis.__skilldeckPerf?.last?.query === 'warm up');
    await page.evaluate(() => globalThis.__skilldeckPerf.samples.splice(0));
    for (const query of QUERIES) {
      await composer.fill('');
      await composer.pressSequentially(query, { delay: delayMs });
      await page.waitForFunction((q) => globalThis.__skilldeckPerf?.last?.query === q, query);
    }
    const samples = await page.evaluate(() => globalThis.__skilldeckPerf.samples);
    const pick = (key) => samples.map((s) => s[key]);
    const round = (n) => (n === null ? null : Number(n.toFixed(2)));
    return {
      corpus: skillDirs.length > 0,
      samples: samples.length,
      keystroke_to_paint_p50_ms: round(quantile(pick('paintMs'), 0.5)),
      keystroke_to_paint_p95_ms: round(quantile(pick('paintMs'), 0.95)),
      keystroke_to_commit_p50_ms: round(quantile(pick('commitMs'), 0.5)),
      round_trip_p50_ms: round(quantile(pick('roundTripMs'), 0.5)),
      engine_p50_ms: round(quantile(pick('engineMs'), 0.5)),
      engine_p95_ms: round(quantile(pick('engineMs'), 0.95)),
      load_average_1m: Number(os.loadavg()[0].toFixed(2)),
    };
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await benchKeystroke();
  console.log('keystroke → repainted score panel (browser mode, performance marks)');
  console.table(result);
}
