import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Workspace {
  /** Fresh `$SKILLDECK_HOME`. */
  home: string;
  /** The folder `serve` runs in (its workspace). */
  folder: string;
  /** A fresh skills folder passed with `--skills`; tests drop skills in it. */
  skillsDir: string;
  /** The served URL with its token. */
  url: string;
  /** Everything the server printed, for failure reports. */
  log: () => string;
}

const withoutModelEnv = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !/^(OPENAI_|ANTHROPIC_|SKILLDECK_MODEL|SKILLDECK_EMBEDDING)/.test(name),
    ),
  );

async function startServer(
  root: string,
  skillsDir: string,
  seedFiles: Record<string, string>,
  extraSkillDirs: string[],
  serverEnv: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  for (const [file, content] of Object.entries(seedFiles)) {
    fs.mkdirSync(path.dirname(path.join(skillsDir, file)), { recursive: true });
    fs.writeFileSync(path.join(skillsDir, file), content);
  }
  const home = path.join(root, 'home');
  const child = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'dist', 'node', 'cli.cjs'),
      'serve',
      '--port',
      '0',
      '--skills',
      skillsDir,
      ...extraSkillDirs.flatMap((dir) => ['--skills', dir]),
    ],
    {
      // Never the real home: HOME and SKILLDECK_HOME point into the test's temp dir.
      // The runner's own model variables never leak in; a spec passes its own in `serverEnv`.
      env: {
        ...withoutModelEnv(process.env),
        ...serverEnv,
        HOME: path.join(root, 'user-home'),
        SKILLDECK_HOME: home,
      },
      cwd: path.join(root, 'workspace'),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, url, log: () => output };
}

/**
 * `seedFiles`: files (relative to the test's skills folder) written before the server starts.
 * `extraSkillDirs`: more folders passed with `--skills` (read in place, e.g. the corpus).
 * `rootFiles`: files relative to the test's root, written before the server starts: under
 * `workspace/` (the folder `serve` runs in: its skills/, .claude/skills) or `user-home/`.
 * `serverEnv`: extra environment for the server, e.g. `OPENAI_BASE_URL` of a scripted model
 * server (override it with a fixture that depends on the model server to pass its port).
 */
type Fixtures = {
  workspace: Workspace;
  seedFiles: Record<string, string>;
  extraSkillDirs: string[];
  serverEnv: Record<string, string>;
  rootFiles: Record<string, string>;
};

export const test = base.extend<Fixtures>({
  seedFiles: [{}, { option: true }],
  extraSkillDirs: [[], { option: true }],
  serverEnv: [{}, { option: true }],
  rootFiles: [{}, { option: true }],
  workspace: async ({ seedFiles, extraSkillDirs, serverEnv, rootFiles }, use, testInfo) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-e2e-'));
    for (const dir of ['home', 'user-home', 'workspace', 'skills']) fs.mkdirSync(path.join(root, dir));
    for (const [file, content] of Object.entries(rootFiles)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), content);
    }
    const skillsDir = path.join(root, 'skills');
    const server = await startServer(root, skillsDir, seedFiles, extraSkillDirs, serverEnv);
    await use({
      home: path.join(root, 'home'),
      folder: path.join(root, 'workspace'),
      skillsDir,
      url: server.url,
      log: server.log,
    });
    // Wait for the engine to exit: a run it was still recording would race the removal below.
    const exited = new Promise((resolve) => {
      if (server.child.exitCode !== null) resolve(null);
      server.child.once('exit', resolve);
    });
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('server-log', { body: server.log(), contentType: 'text/plain' });
    }
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  },
});

export { expect };
