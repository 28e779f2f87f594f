import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures';
import { TransitionLog } from './transitionLog';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('TransitionLog', () => {
  it('keeps a run’s repair history private (0600), as every other file under the home', () => {
    // It was created with the umask's 0644, and its details quote the failing run's errors.
    const home = tempDir();
    dirs.push(home);
    const log = new TransitionLog(home);
    const at = '2026-11-29T00:00:00.000Z';
    const base = { repair_id: 'rep-1', run_id: 'run-1', skill: 's', at, attempt: null, duration_ms: 0 };
    log.append({ ...base, seq: 0, state: 'failure_detected', detail: 'exit 1: KeyError' });
    expect(log.read('run-1')[0]).toMatchObject({ state: 'failure_detected' });
    expect(fs.statSync(path.join(log.dir, 'run-1.jsonl')).mode & 0o777).toBe(0o600);
  });
});
