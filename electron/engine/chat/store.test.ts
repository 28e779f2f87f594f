import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../shared/contract';
import { tempDir } from '../../testing/fixtures';
import { ConversationStore } from './store';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const turn = (conversation_id: string, turn_id: string, message: string, answer = 'ok'): ChatTurn =>
  ({
    conversation_id,
    turn_id,
    message,
    answer,
    status: 'success',
    steps: [],
    usage: { input_tokens: 1, output_tokens: 2 },
    skill: null,
    started_at: '2026-11-23T00:00:00.000Z',
    finished_at: '2026-11-23T00:00:01.000Z',
    route: {
      route_id: 'r',
      ts: '2026-11-23T00:00:00.000Z',
      origin: 'chat',
      query: message,
      latency_ms: 0.1,
      threshold: 0.65,
      candidates: [],
      plan: {
        skills: [],
        skill_ids: [],
        primary: null,
        primary_id: null,
        parallel_groups: [],
        fallback_chain: [],
        estimated_cost: 'none',
        routing_reason: 'plain chat',
        parameters: { task: message },
      },
    },
  }) satisfies ChatTurn;

function store() {
  const home = tempDir();
  dirs.push(home);
  return { home, store: ConversationStore.at(home) };
}

describe('ConversationStore', () => {
  it('creates, titles from the first message, appends turns and reloads them from disk', () => {
    const { home, store: s } = store();
    const c = s.create();
    s.appendTurn(turn(c.id, 't1', 'What is the weather\nin Berlin tomorrow?'));
    s.appendTurn(turn(c.id, 't2', 'and in Paris?'));
    const again = ConversationStore.at(home);
    expect(again.list()).toEqual([
      expect.objectContaining({ id: c.id, title: 'What is the weather', turns: 2 }),
    ]);
    expect(again.get(c.id).history.map((t) => t.turn_id)).toEqual(['t1', 't2']);
  });

  it('keeps a conversation’s log private (0600), as the index and the route log are', () => {
    // It was created with the umask's 0644: every message and answer readable by any local user.
    const { home, store: s } = store();
    const c = s.create();
    s.appendTurn(turn(c.id, 't1', 'my salary is 90k, plan my budget'));
    const chats = path.join(home, 'chats');
    for (const file of fs.readdirSync(chats))
      expect(fs.statSync(path.join(chats, file)).mode & 0o777, file).toBe(0o600);
  });

  it('renames, searches titles and message text, and deletes with the log', () => {
    const { home, store: s } = store();
    const a = s.create();
    s.appendTurn(turn(a.id, 't1', 'convert 5 miles', 'that is 8 km'));
    const b = s.create('Invoices');
    s.rename(a.id, 'Units');
    expect(s.list('units').map((c) => c.id)).toEqual([a.id]);
    expect(s.list('8 KM').map((c) => c.id)).toEqual([a.id]);
    expect(s.list('invoice').map((c) => c.id)).toEqual([b.id]);
    expect(s.delete(a.id)).toBe(true);
    expect(s.delete(a.id)).toBe(false);
    expect(fs.existsSync(path.join(home, 'chats', `${a.id}.jsonl`))).toBe(false);
    expect(() => s.get(a.id)).toThrow(/No conversation/);
  });

  it('retracts a turn (resend) and skips a torn last line from a crash', () => {
    const { home, store: s } = store();
    const c = s.create();
    s.appendTurn(turn(c.id, 't1', 'one'));
    s.appendTurn(turn(c.id, 't2', 'two'));
    s.retract(c.id, 't2');
    fs.appendFileSync(path.join(home, 'chats', `${c.id}.jsonl`), '{"type":"turn","turn":{"conv');
    const again = ConversationStore.at(home);
    expect(again.get(c.id).history.map((t) => t.turn_id)).toEqual(['t1']);
    expect(again.list()[0].turns).toBe(1);
  });

  it('a turn appended after a torn last line is kept, and so is every turn after it', () => {
    // A crash mid-append leaves a line without its newline: the next turn was written onto that
    // line, so it did not parse, and every later turn lost it from the history the model hears.
    const { home, store: s } = store();
    const c = s.create();
    s.appendTurn(turn(c.id, 't1', 'one'));
    fs.appendFileSync(path.join(home, 'chats', `${c.id}.jsonl`), '{"type":"turn","turn":{"conv');
    const again = ConversationStore.at(home);
    again.appendTurn(turn(c.id, 't2', 'two'));
    again.appendTurn(turn(c.id, 't3', 'three'));
    again.retract(c.id, 't3');
    expect(
      ConversationStore.at(home)
        .get(c.id)
        .history.map((t) => t.turn_id),
    ).toEqual(['t1', 't2']);
  });

  it.each([
    ['cut off mid-write', '{"version":1,"conversations":[{"id":'],
    ['of another shape', '{"version":2,"items":[]}'],
  ])('an index.json %s is rebuilt from the conversation logs, not emptied', (_case, broken) => {
    // Before, every conversation vanished from the list, `--conversation ID` said there was no
    // such conversation, and the next new chat wrote an index holding only itself.
    const { home, store: s } = store();
    const a = s.create();
    s.appendTurn(turn(a.id, 't1', 'convert 5 miles'));
    s.appendTurn(turn(a.id, 't2', 'and 10?'));
    const b = s.create();
    s.appendTurn(turn(b.id, 't1', 'weather in Berlin'));
    const index = path.join(home, 'chats', 'index.json');
    fs.writeFileSync(index, broken);
    const again = ConversationStore.at(home);
    expect(again.get(a.id).history.map((t) => t.message)).toEqual(['convert 5 miles', 'and 10?']);
    again.create('New one');
    const listed = ConversationStore.at(home).list();
    expect(listed.map((c) => [c.title, c.turns]).sort()).toEqual([
      ['New one', 0],
      ['convert 5 miles', 2],
      ['weather in Berlin', 1],
    ]);
    // The broken file is kept beside it (a renamed title lives only there).
    expect(
      fs.readdirSync(path.join(home, 'chats')).filter((f) => f.startsWith('index.json.broken')),
    ).toHaveLength(1);
  });

  it('an edited first message renames a conversation it named, never one the user named', () => {
    const { store: s } = store();
    const auto = s.create();
    s.appendTurn(turn(auto.id, 't1', 'summarise this pdf'));
    s.retract(auto.id, 't1');
    s.appendTurn(turn(auto.id, 't2', 'summarise this docx'));
    expect(s.list().find((c) => c.id === auto.id)?.title).toBe('summarise this docx');

    const named = s.create();
    s.appendTurn(turn(named.id, 't1', 'summarise this pdf'));
    s.rename(named.id, 'Reading list');
    s.retract(named.id, 't1');
    s.appendTurn(turn(named.id, 't2', 'summarise this docx'));
    expect(s.list().find((c) => c.id === named.id)?.title).toBe('Reading list');
  });
});
