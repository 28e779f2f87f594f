import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ChatTurn, RunResult } from '../../shared/contract';
import { cliWithModel, startCliWithModel } from '../testing/cliBundle';

// Ctrl-C during `chat --json` and `run --json` prints the turn or run as it stood, as `repair`
// does, and exits 130 as shells expect of an interrupted command: before, they exited 1, which a
// caller could not tell from a turn that failed.
const cli = cliWithModel('skilldeck-cli-chat-interrupt-', {
  'slow-sync/SKILL.md': '---\nname: slow-sync\ndescription: Syncs slowly.\n---\nRun scripts/sync.py.\n',
  'slow-sync/skill.yaml': 'entrypoints: [scripts/sync.py]\nexecution_policy: { approval: auto }\n',
  'slow-sync/scripts/sync.py': 'import time\nprint("syncing", flush=True)\ntime.sleep(60)\n',
});

const whereFor = (home: string) => ({
  cli: path.join(cli.root, 'cli.cjs'),
  skills: cli.skills,
  home,
  userHome: cli.root,
  baseURL: cli.server.baseURL,
  apiKey: 'k',
});

async function interrupted(args: string[], ready: (home: string) => boolean) {
  const where = whereFor(path.join(cli.root, `home-int-${Date.now()}`));
  const { child, done } = startCliWithModel(where, [...args, '--json']);
  for (const started = Date.now(); !ready(where.home); await sleep(50))
    if (Date.now() - started > 30_000) throw new Error('timed out waiting to interrupt');
  child.kill('SIGINT');
  return done;
}

describe('Ctrl-C during chat --json and run --json', () => {
  it('chat: the partial answer as a cancelled turn, exit 130', async () => {
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: ['Half ', 'an ', 'answer'], holdAfter: 1 });
    const { code, stdout } = await interrupted(
      ['chat', 'tell me a story'],
      () => cli.server.chatRequests().length > before,
    ).finally(() => cli.server.release());
    expect(code).toBe(130);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(turn.status).toBe('cancelled');
  }, 60_000);

  // The moment the first file is written under $SKILLDECK_HOME (the run's record, the conversation):
  // before, no handler was installed yet then, and SIGINT killed the process without its JSON.
  it.each([
    ['run', ['run', 'slow-sync', 'sync it']],
    ['chat', ['chat', 'tell me a story']],
  ])(
    '%s: Ctrl-C as it starts still prints the JSON, exit 130',
    async (_name, args) => {
      const home = path.join(cli.root, `home-early-${Date.now()}`);
      fs.mkdirSync(home);
      const { child, done } = startCliWithModel(whereFor(home), [...args, '--json']);
      const watcher = fs.watch(home, { recursive: true }, () => {
        watcher.close();
        child.kill('SIGINT');
      });
      const { code, stdout } = await done.finally(() => watcher.close());
      expect(code).toBe(130);
      expect(JSON.parse(stdout).status).toBe('cancelled');
    },
    60_000,
  );

  it('run: the stopped run, exit 130', async () => {
    const { code, stdout } = await interrupted(['run', 'slow-sync', 'sync it'], running);
    expect(code).toBe(130);
    expect(RunResult.parse(JSON.parse(stdout)).status).toBe('cancelled');
  }, 60_000);
});

/** A run is under way in `home`: its record says so. */
function running(home: string): boolean {
  const runs = path.join(home, 'runs');
  if (!fs.existsSync(runs)) return false;
  return fs
    .readdirSync(runs, { recursive: true, encoding: 'utf8' })
    .some((f) => f.endsWith('.json') && fs.readFileSync(path.join(runs, f), 'utf8').includes('"running"'));
}

// The next turn after a Ctrl-C: the partial answer went into the history as if it were whole, so
// the model took "Half an" for what it had said, with nothing to tell it the user cut it short.
describe('chat --conversation after a turn stopped mid-answer', () => {
  it('the history says the answer was stopped where it ends', async () => {
    const where = whereFor(path.join(cli.root, `home-after-stop-${Date.now()}`));
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: ['Half ', 'an ', 'answer'], holdAfter: 1 });
    const { child, done } = startCliWithModel(where, ['chat', 'tell me a story', '--json']);
    for (const started = Date.now(); cli.server.chatRequests().length <= before; await sleep(50))
      if (Date.now() - started > 30_000) throw new Error('timed out waiting for the model request');
    // The first piece is on its way before the stop.
    await sleep(500);
    child.kill('SIGINT');
    const stopped = ChatTurn.parse(JSON.parse((await done.finally(() => cli.server.release())).stdout));
    expect(stopped.status).toBe('cancelled');
    const next = before + 1;
    cli.server.enqueue({ text: 'Once upon a time…' });
    const again = await startCliWithModel(where, [
      'chat',
      'go on',
      '--conversation',
      stopped.conversation_id,
      '--json',
    ]).done;
    expect(again.code, again.stderr).toBe(0);
    const assistant = cli.server.chatRequests()[next].messages.filter((m) => m.role === 'assistant');
    expect(assistant.map((m) => m.content)).toEqual([
      `${stopped.answer || ''}${stopped.answer ? '\n\n' : ''}(The user stopped this answer here.)`,
    ]);
  }, 90_000);
});
