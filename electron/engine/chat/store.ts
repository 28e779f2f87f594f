import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ChatTurn, ConversationSummary, type Conversation } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { notFound } from '../errors';
import { withFileLock } from '../fileLock';

const IndexFile = z.object({ version: z.literal(1), conversations: z.array(ConversationSummary) });
/** One line of `<id>.jsonl`: a finished turn, or the retraction of one (resend replaces it). */
const Line = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn'), turn: ChatTurn }),
  z.object({ type: z.literal('retract'), turn_id: z.string() }),
]);

const newId = () => `c-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
const titleOf = (message: string) => {
  const line = message.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || 'New conversation';
};

/**
 * Conversations in `$SKILLDECK_HOME/chats/` (DESIGN §6): an atomic `index.json` and one
 * append-only `<id>.jsonl` of finished turns each. A line that does not parse (a crash
 * mid-write) is skipped, never fatal.
 */
export class ConversationStore {
  private index: ConversationSummary[] = [];

  constructor(private readonly dir: string) {
    this.load();
  }

  /**
   * Reads the index as it is on disk now: another process (the app, a second `skilldeck chat`)
   * may have written it since, and a copy read at start and written back later dropped what that
   * one added. A missing or broken index is rebuilt from the logs.
   */
  private load(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.indexFile, 'utf8');
    } catch {
      // No index: no conversations yet, or one removed by hand beside its logs.
      this.rebuildIndex();
      return;
    }
    let parsed: ReturnType<typeof IndexFile.safeParse> | undefined;
    try {
      parsed = IndexFile.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) this.index = parsed.data.conversations;
    else this.rebuildIndex();
  }

  /** Read, change and write the index under its lock, so two processes' changes both stay. */
  private update(change: (index: ConversationSummary[]) => ConversationSummary[]): void {
    fs.mkdirSync(this.dir, { recursive: true });
    withFileLock(`${this.indexFile}.lock`, () => {
      this.load();
      this.index = change(this.index);
      this.saveIndex();
    });
  }

  /**
   * An index.json that does not parse (a disk that filled, a hand edit) would list no
   * conversation, and the next write would keep only the new one: the logs hold every turn, so
   * the list is rebuilt from them, and the broken file is kept beside it (renamed titles live there).
   */
  private rebuildIndex(): void {
    try {
      fs.renameSync(this.indexFile, `${this.indexFile}.broken-${Date.now().toString(36)}`);
    } catch {
      // Gone already: rebuild all the same.
    }
    let logs: string[];
    try {
      logs = fs.readdirSync(this.dir).filter((f) => /^c-[\w-]+\.jsonl$/.test(f));
    } catch {
      return;
    }
    if (logs.length === 0) return;
    this.index = logs.map((file) => this.summaryFromLog(file.slice(0, -'.jsonl'.length)));
    this.saveIndex();
  }

  /** An index entry for a conversation known only by its log. */
  private summaryFromLog(id: string): ConversationSummary {
    const turns = this.turns(id);
    const changed = fs.statSync(this.log(id)).mtime.toISOString();
    return {
      id,
      title: turns.length > 0 ? titleOf(turns[0].message) : 'New conversation',
      created_at: turns[0]?.started_at ?? changed,
      updated_at: turns.at(-1)?.finished_at ?? changed,
      turns: turns.length,
    };
  }

  /**
   * Appends one line to a conversation's log. After a crash mid-append the log ends inside a
   * line: without the newline first, this line would join that fragment and be lost with it.
   */
  private appendLine(id: string, value: object): void {
    const file = this.log(id);
    let torn = false;
    try {
      const fd = fs.openSync(file, 'r');
      try {
        const size = fs.fstatSync(fd).size;
        const last = Buffer.alloc(1);
        torn = size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // No log yet.
    }
    // Private, as the index and every other file under the home: it holds each message and answer.
    fs.appendFileSync(file, `${torn ? '\n' : ''}${JSON.stringify(value)}\n`, { mode: 0o600 });
  }

  static at(home: string): ConversationStore {
    return new ConversationStore(path.join(home, 'chats'));
  }

  private get indexFile(): string {
    return path.join(this.dir, 'index.json');
  }

  private log(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  private saveIndex(): void {
    writeFileAtomicSync(
      this.indexFile,
      `${JSON.stringify({ version: 1, conversations: this.index }, null, 1)}\n`,
    );
  }

  /**
   * The conversation's entry as on disk now. One whose log is there but whose entry is not (an
   * index another process overwrote before writes were locked) is listed again from its log.
   */
  private known(id: string): ConversationSummary {
    this.load();
    const found = this.index.find((c) => c.id === id);
    if (found) return found;
    if (/^c-[\w-]+$/.test(id) && fs.existsSync(this.log(id))) {
      this.update((index) => (index.some((c) => c.id === id) ? index : [...index, this.summaryFromLog(id)]));
      const adopted = this.index.find((c) => c.id === id);
      if (adopted) return adopted;
    }
    throw notFound(`No conversation "${id.slice(0, 128)}".`);
  }

  /** Most recently used first; `query` matches titles and message text, case-insensitively. */
  list(query?: string): ConversationSummary[] {
    this.load();
    const sorted = [...this.index].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    const q = query?.trim().toLowerCase();
    if (!q) return sorted;
    return sorted.filter(
      (c) =>
        c.title.toLowerCase().includes(q) ||
        this.turns(c.id).some(
          (t) => t.message.toLowerCase().includes(q) || t.answer.toLowerCase().includes(q),
        ),
    );
  }

  create(title?: string): ConversationSummary {
    const now = new Date().toISOString();
    const summary = {
      id: newId(),
      title: title?.trim() || 'New conversation',
      created_at: now,
      updated_at: now,
      turns: 0,
    };
    this.update((index) => [...index, summary]);
    return summary;
  }

  rename(id: string, title: string): ConversationSummary {
    this.known(id);
    let summary: ConversationSummary | undefined;
    this.update((index) => index.map((c) => (c.id === id ? (summary = { ...c, title: title.trim() }) : c)));
    if (!summary) throw notFound(`No conversation "${id.slice(0, 128)}".`);
    return summary;
  }

  delete(id: string): boolean {
    this.load();
    if (!this.index.some((c) => c.id === id)) return false;
    this.update((index) => index.filter((c) => c.id !== id));
    fs.rmSync(this.log(id), { force: true });
    return true;
  }

  get(id: string): Conversation {
    return { ...this.known(id), history: this.turns(id) };
  }

  /** The finished turns, in order, retractions applied. */
  turns(id: string): ChatTurn[] {
    return this.read(id).turns;
  }

  /**
   * Lines of the conversation's log that do not read as a turn (a hand edit, a crash mid-write):
   * their turns are left out of the history, which a caller should say.
   */
  unreadableLines(id: string): number {
    return /^c-[\w-]+$/.test(id) ? this.read(id).unreadable : 0;
  }

  private read(id: string): { turns: ChatTurn[]; unreadable: number } {
    let text: string;
    try {
      text = fs.readFileSync(this.log(id), 'utf8');
    } catch {
      return { turns: [], unreadable: 0 };
    }
    const turns: ChatTurn[] = [];
    let unreadable = 0;
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      let line: z.infer<typeof Line>;
      try {
        const parsed = Line.safeParse(JSON.parse(raw));
        if (!parsed.success) {
          unreadable += 1;
          continue;
        }
        line = parsed.data;
      } catch {
        unreadable += 1;
        continue;
      }
      if (line.type === 'turn') turns.push(line.turn);
      else {
        const at = turns.findIndex((t) => t.turn_id === line.turn_id);
        if (at !== -1) turns.splice(at, 1);
      }
    }
    return { turns, unreadable };
  }

  /** Where a conversation's turns are kept (for messages that name it). */
  logPath(id: string): string {
    return this.log(id);
  }

  /** Append a finished turn; the first one names an untitled conversation. */
  appendTurn(turn: ChatTurn): ConversationSummary {
    const id = this.known(turn.conversation_id).id;
    this.appendLine(id, { type: 'turn', turn });
    let next: ConversationSummary | undefined;
    this.update((index) =>
      index.map((summary) =>
        summary.id !== id
          ? summary
          : (next = {
              ...summary,
              title:
                summary.turns === 0 && summary.title === 'New conversation'
                  ? titleOf(turn.message)
                  : summary.title,
              updated_at: new Date().toISOString(),
              turns: summary.turns + 1,
            }),
      ),
    );
    // Deleted by another process after the line was written: the turn is on disk all the same.
    return next ?? this.summaryFromLog(id);
  }

  /** Take back a turn (resend replaces the last one). */
  retract(id: string, turnId: string): void {
    this.known(id);
    const taken = this.turns(id).find((t) => t.turn_id === turnId);
    this.appendLine(id, { type: 'retract', turn_id: turnId });
    this.update((index) =>
      index.map((c) => {
        if (c.id !== id) return c;
        const turns = Math.max(0, c.turns - 1);
        // A title the first message gave (not the user) follows that message when it is edited.
        const named = turns === 0 && taken !== undefined && c.title === titleOf(taken.message);
        return { ...c, turns, ...(named ? { title: 'New conversation' } : {}) };
      }),
    );
  }
}
