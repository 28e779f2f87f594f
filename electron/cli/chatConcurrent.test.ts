import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel, startCliWithModel } from '../testing/cliBundle';

// Two `skilldeck chat` processes on one $SKILLDECK_HOME at once (a script running chats in
// parallel, a terminal and the app). Each process read the conversation index when it opened and
// wrote its own copy back after its turn, so the one that finished last dropped what the other
// wrote: a conversation whose id a successful turn had just printed was then "No conversation".
const cli = cliWithModel('skilldeck-cli-chat-concurrent-', {
  'notes/SKILL.md': '---\nname: notes\ndescription: Keeps meeting notes.\n---\nKeep notes.\n',
  'notes/skill.yaml': 'spec: { type: instruction }\n',
});

const start = (home: string, args: string[]) =>
  startCliWithModel(
    {
      cli: path.join(cli.root, 'cli.cjs'),
      skills: cli.skills,
      home,
      userHome: cli.root,
      baseURL: cli.server.baseURL,
      apiKey: 'k',
    },
    [...args, '--json'],
  );

async function waitFor(ready: () => boolean): Promise<void> {
  for (const started = Date.now(); !ready(); await sleep(50))
    if (Date.now() - started > 30_000) throw new Error('timed out waiting for the model request');
}

/** Turn A's stream is held at the server while turn B runs to its end; then A finishes. */
async function overlapping(home: string, argsA: string[], argsB: string[]) {
  const before = cli.server.chatRequests().length;
  cli.server.enqueue({ text: ['Answer ', 'A'], holdAfter: 0 });
  const a = start(home, argsA);
  try {
    await waitFor(() => cli.server.chatRequests().length > before);
    cli.server.enqueue({ text: 'Answer B' });
    const b = await start(home, argsB).done;
    expect(b.code, b.stderr).toBe(0);
    cli.server.release();
    const resultA = await a.done;
    expect(resultA.code, resultA.stderr).toBe(0);
    return { a: ChatTurn.parse(JSON.parse(resultA.stdout)), b: ChatTurn.parse(JSON.parse(b.stdout)) };
  } finally {
    cli.server.release();
  }
}

const indexOf = (home: string) =>
  (
    JSON.parse(fs.readFileSync(path.join(home, 'chats', 'index.json'), 'utf8')) as {
      conversations: Array<{ id: string; title: string; turns: number }>;
    }
  ).conversations;

describe('skilldeck chat: two processes on one home at once', () => {
  it('two new conversations both stay listed and can be continued', async () => {
    const home = path.join(cli.root, 'home-two-new');
    const { a, b } = await overlapping(home, ['chat', 'first question'], ['chat', 'second question']);
    expect(a.answer).toBe('Answer A');
    expect(a.conversation_id).not.toBe(b.conversation_id);
    const listed = indexOf(home);
    expect(listed.map((c) => c.id).sort()).toEqual([a.conversation_id, b.conversation_id].sort());
    expect(listed.map((c) => [c.title, c.turns]).sort()).toEqual([
      ['first question', 1],
      ['second question', 1],
    ]);
    for (const turn of [a, b]) {
      cli.server.enqueue({ text: 'Go on.' });
      const next = await start(home, ['chat', 'and then?', '--conversation', turn.conversation_id]).done;
      expect(next.code, next.stdout + next.stderr).toBe(0);
      expect(ChatTurn.parse(JSON.parse(next.stdout)).conversation_id).toBe(turn.conversation_id);
    }
  }, 90_000);

  it('two turns on one conversation are both counted and both reach the next turn', async () => {
    const home = path.join(cli.root, 'home-one-conversation');
    cli.server.enqueue({ text: 'Hello.' });
    const first = await start(home, ['chat', 'opening line']).done;
    const id = ChatTurn.parse(JSON.parse(first.stdout)).conversation_id;
    await overlapping(
      home,
      ['chat', 'message from the terminal', '--conversation', id],
      ['chat', 'message from a script', '--conversation', id],
    );
    expect(indexOf(home)).toEqual([expect.objectContaining({ id, title: 'opening line', turns: 3 })]);
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: 'Noted.' });
    const next = await start(home, ['chat', 'summing up', '--conversation', id]).done;
    expect(next.code, next.stderr).toBe(0);
    const request = cli.server.chatRequests()[before];
    const users = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(
      expect.arrayContaining([
        'opening line',
        'message from the terminal',
        'message from a script',
        'summing up',
      ]),
    );
  }, 90_000);

  it('a conversation whose log is on disk but missing from the index is found again', async () => {
    const home = path.join(cli.root, 'home-unlisted');
    cli.server.enqueue({ text: 'Hello.' });
    const first = await start(home, ['chat', 'an unlisted conversation']).done;
    const id = ChatTurn.parse(JSON.parse(first.stdout)).conversation_id;
    // What the race above left behind in homes written before the fix.
    const indexFile = path.join(home, 'chats', 'index.json');
    fs.writeFileSync(indexFile, JSON.stringify({ version: 1, conversations: [] }));
    cli.server.enqueue({ text: 'Still here.' });
    const next = await start(home, ['chat', 'are you there?', '--conversation', id]).done;
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(indexOf(home)).toEqual([
      expect.objectContaining({ id, title: 'an unlisted conversation', turns: 2 }),
    ]);
  }, 90_000);
});

// The same pattern lost run counts: stats.json (success_rate and the cold-start rule read it)
// was read when the engine opened and written whole after each run, so of two overlapping turns
// with a skill only the last one's count stayed (and the app, open for hours, dropped every run a
// terminal made meanwhile).
describe('skilldeck chat: run counts of two processes at once', () => {
  it('both turns with a skill are counted', async () => {
    const home = path.join(cli.root, 'home-stats');
    await overlapping(home, ['chat', '$notes keep this: A'], ['chat', '$notes keep this: B']);
    const stats = JSON.parse(fs.readFileSync(path.join(home, 'stats.json'), 'utf8')) as {
      skills: Record<string, { runs: number; successes: number }>;
    };
    expect(stats.skills.notes).toEqual({ runs: 2, successes: 2 });
  }, 90_000);
});
