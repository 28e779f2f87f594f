// `npm run bench`: speed targets live here, not in timed tests. Prints one JSON document.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, '..', 'shared', 'corpus', 'skills');
const cli = path.join(root, 'dist', 'node', 'cli.cjs');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

function timeProcess(args, runs) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-'));
  const env = { ...process.env, SKILLDECK_HOME: home, HOME: home };
  const times = [];
  let output = '';
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [cli, ...args], {
      env,
      cwd: home,
      maxBuffer: 256 * 1024 * 1024,
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
    output = result.stdout.toString();
  }
  fs.rmSync(home, { recursive: true, force: true });
  return { times, output };
}

const results = { machine: { cpus: os.cpus().length, node: process.version } };

if (fs.existsSync(corpus)) {
  const args = ['skills', 'list', '--json', '--no-default-paths', '--skills', corpus];
  timeProcess(args, 1); // warm the page cache once
  const { times, output } = timeProcess(args, 7);
  results.corpus_list = {
    command: `skilldeck ${args.join(' ')}`,
    skills: JSON.parse(output).length,
    whole_process_ms: { median: +median(times).toFixed(1), p95: +percentile(times, 0.95).toFixed(1) },
    // The first run of a fresh $SKILLDECK_HOME reads every SKILL.md for its danger line; the
    // runs after it answer unchanged files from the flag cache (cache/skill-flags.json).
    first_run_ms: +times[0].toFixed(1),
    target_ms: 1500,
    pass: median(times) <= 1500,
  };
} else {
  results.corpus_list = { skipped: `corpus not found at ${corpus}` };
}

// `skilldeck route` as a script calls it, one process a query over the bundled skills: the
// latency_ms it reports (the router's cold paths are taken at start, before the route is timed)
// and the whole command's time.
{
  const queries = [
    'weather in Rome this weekend',
    'convert this docx to pdf',
    'dim the bedroom lights to 20 percent',
    '明天北京会下雨吗',
    'list the open PRs on vercel/next.js waiting for my review',
    'tell me a joke about cats',
  ];
  const reported = [];
  const wall = [];
  for (const query of queries) {
    const { times, output } = timeProcess(['route', query, '--json'], 1);
    reported.push(JSON.parse(output).latency_ms);
    wall.push(times[0]);
  }
  results.cli_route = {
    queries: queries.length,
    latency_ms: { median: +median(reported).toFixed(2), max: +Math.max(...reported).toFixed(2) },
    whole_process_ms: { median: +median(wall).toFixed(1) },
  };
}

// Routing (issue 4): latency at 100 / 1k / 10k synthetic skills and over the corpus, index
// build time, and the quality table (SkillDeck vs trigger-only vs the seeds' scorer).
const { benchRouting } = createRequire(import.meta.url)(path.join(root, 'dist', 'node', 'routing-bench.cjs'));
results.routing = await benchRouting({ corpusSkills: corpus, bundledDir: path.join(root, 'skills') });

// Sandbox (issue 7): `true` through bwrap (network off) vs a plain spawn, and what a domain
// allow-list adds (the per-run proxy and its socat bridge).
const { benchSandbox } = createRequire(import.meta.url)(path.join(root, 'dist', 'node', 'sandbox-bench.cjs'));
results.sandbox = await benchSandbox(30);

// Hostile or huge input outside routing: each case was super-linear once (seconds to hours).
const { benchHostile } = createRequire(import.meta.url)(path.join(root, 'dist', 'node', 'hostile-bench.cjs'));
results.hostile_input_ms = benchHostile();

// Keystroke → repainted score panel, in Chromium over browser mode with the corpus loaded.
const { benchKeystroke } = await import('./keystroke.mjs');
try {
  results.keystroke = { ...(await benchKeystroke()), target_paint_p95_ms: 50 };
} catch (error) {
  results.keystroke = { skipped: String(error?.message ?? error) };
}

// Disk edit → skills.changed over browser mode (issue 3 item 6: within 1 s).
const { benchHotReload } = await import('./hotReload.mjs');
try {
  results.hot_reload = await benchHotReload();
} catch (error) {
  results.hot_reload = { skipped: String(error?.message ?? error) };
}

console.log(JSON.stringify(results, null, 2));
