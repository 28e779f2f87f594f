import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { envWithoutModel, tempDir, writeTree } from './fixtures';
import { startModelServer, type ModelServer } from './modelServer';

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

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a CLI process under test finds its skills, its data and its model. */
export interface CliWithModel {
  cli: string;
  /** The only discovery folder (`--no-default-paths --skills`). */
  skills: string;
  /** $SKILLDECK_HOME. */
  home: string;
  /** $HOME: never the real one. */
  userHome: string;
  /** The scripted OpenAI-compatible server, reached through OPENAI_BASE_URL like any provider. */
  baseURL: string;
  apiKey: string;
}

/**
 * Runs the CLI bundle as a real process, the model configured by the environment (DESIGN §2:
 * OPENAI_BASE_URL, OPENAI_API_KEY, SKILLDECK_MODEL) and nothing of the caller's model settings.
 */
export function runCliWithModel(
  o: CliWithModel,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return startCliWithModel(o, args, env).done;
}

/** `runCliWithModel`, with the process at hand (to signal it) while it runs. */
export function startCliWithModel(
  o: CliWithModel,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [o.cli, ...args, '--no-default-paths', '--skills', o.skills], {
    env: {
      ...envWithoutModel(),
      SKILLDECK_HOME: o.home,
      HOME: o.userHome,
      OPENAI_BASE_URL: o.baseURL,
      OPENAI_API_KEY: o.apiKey,
      SKILLDECK_MODEL: 'm',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/**
 * What the CLI-with-a-model tests share, set up at module level: the CLI bundle built once, the
 * scripted model server (key `k`, model `m`), `files` as the only skills folder, all removed after.
 * `run` starts the CLI in a fresh $SKILLDECK_HOME each time.
 */
export function cliWithModel(prefix: string, files: Record<string, string>) {
  const root = tempDir(prefix);
  const cli = path.join(root, 'cli.cjs');
  const skills = path.join(root, 'skills');
  let server: ModelServer | undefined;
  let runs = 0;
  const harness = {
    root,
    skills,
    get server(): ModelServer {
      if (!server) throw new Error('cliWithModel: the model server starts in beforeAll');
      return server;
    },
    run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
      const home = path.join(root, `home-${++runs}`);
      const where = { cli, skills, home, userHome: root, baseURL: harness.server.baseURL, apiKey: 'k' };
      return runCliWithModel(where, args, env);
    },
  };
  beforeAll(async () => {
    await buildCliBundle(cli);
    server = await startModelServer({ apiKey: 'k', models: ['m'] });
    writeTree(skills, files);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  return harness;
}
