import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { createBwrapBackend } from './bwrap';
import type { SandboxSpec } from './types';

// Two runs at once with the same write folder (a parallel group, the app and its chat): the
// first to end removed the stand-ins it had made for the missing guarded files, which the
// other run's guards were bound over, so the other could then create .envrc (or its bwrap found
// no source and the run did not start).
const root = tempDir('skilldeck-standins-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const project = path.join(root, 'project');
fs.mkdirSync(path.join(root, 'skill'), { recursive: true });
fs.mkdirSync(project, { recursive: true });

const spec = (name: string, script: string): SandboxSpec => {
  const cwd = path.join(root, 'runs', name);
  fs.mkdirSync(cwd, { recursive: true });
  return {
    command: '/bin/bash',
    args: ['-c', script],
    cwd,
    skillDir: path.join(root, 'skill'),
    grants: {
      read: [],
      write: [project],
      network: false,
      env: { PATH: '/usr/bin:/bin', HOME: root },
      declared: { read: [], write: ['{workspace}/**'] },
    },
    timeoutMs: 30_000,
    maxOutputBytes: 64 * 1024,
  };
};

it('a run keeps its guards while the run beside it that made them ends first (real bwrap)', async () => {
  const backend = createBwrapBackend({ home: root });
  // The first run makes the stand-ins; the second, started while they stand, finds them there.
  const first = backend.run(spec('first', 'sleep 1; echo first'));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const second = backend.run(
    spec('second', `sleep 2; echo "eval evil" > ${project}/.envrc && echo planted; echo done`),
  );
  const [a, b] = await Promise.all([first, second]);
  expect(a.stdout).toBe('first\n');
  expect(b.setupError).toBeUndefined();
  expect(b.stdout).toBe('done\n');
  expect(fs.readdirSync(project)).toEqual([]);
}, 60_000);
