import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RouteEvent, RouteOutcome } from '../../../shared/contract';

/** A line of `routes.jsonl`: a route, or an outcome appended later (the log stays append-only). */
const LogLine = z.discriminatedUnion('kind', [
  RouteEvent.extend({ kind: z.literal('route') }),
  z.object({ kind: z.literal('result'), route_id: z.string(), result: RouteOutcome }),
]);

/**
 * `$SKILLDECK_HOME/events/routes.jsonl` (DESIGN §3, §6; routing spec §14): one JSON line per
 * route event, outcomes appended as their own lines and merged on read. Re-read when the file
 * changes on disk, so routes the CLI records show up in a running app.
 */
export class RouteLog {
  private events: RouteEvent[] = [];
  private byId = new Map<string, RouteEvent>();
  private seen = { size: -1, mtimeMs: -1 };
  /** Lines that did not parse (a crash mid-write, a hand edit); skipped, never fatal. */
  skipped = 0;
  /**
   * Why the last write failed (an unwritable `$SKILLDECK_HOME`), or null. A route is still
   * answered: the event is kept in memory instead, and the caller may say it was not recorded.
   */
  writeError: string | null = null;
  private unwritten = new Map<string, RouteEvent>();

  constructor(readonly file: string) {}

  static at(home: string): RouteLog {
    return new RouteLog(path.join(home, 'events', 'routes.jsonl'));
  }

  /** Append a route event. */
  append(event: RouteEvent): void {
    if (!this.write({ kind: 'route', ...event })) this.unwritten.set(event.route_id, event);
  }

  /** Append an outcome for a recorded route; returns the merged event, or undefined for an unknown id. */
  appendResult(routeId: string, result: RouteOutcome): RouteEvent | undefined {
    if (!this.get(routeId)) return undefined;
    const kept = this.unwritten.get(routeId);
    if (kept) kept.result = result;
    else if (!this.write({ kind: 'result', route_id: routeId, result }))
      return { ...this.get(routeId)!, result };
    return this.get(routeId);
  }

  /** Every event, oldest first. */
  all(): RouteEvent[] {
    this.refresh();
    return this.events;
  }

  get(routeId: string): RouteEvent | undefined {
    this.refresh();
    return this.byId.get(routeId) ?? this.unwritten.get(routeId);
  }

  /** Newest first, `limit` at most, strictly older than the event `before` when given. */
  page(limit: number, before?: string): { events: RouteEvent[]; has_more: boolean } {
    const events = this.all();
    let end = events.length;
    if (before !== undefined) {
      const at = events.findIndex((e) => e.route_id === before);
      end = at === -1 ? 0 : at;
    }
    const start = Math.max(0, end - limit);
    return { events: events.slice(start, end).reverse(), has_more: start > 0 };
  }

  /** False, with `writeError` set, when the line could not be written. */
  private write(line: z.infer<typeof LogLine>): boolean {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      // One appendFileSync per line: O_APPEND keeps concurrent writers' lines whole.
      fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      this.writeError = null;
      return true;
    } catch (error) {
      this.writeError = `${this.file} could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      return false;
    }
  }

  private refresh(): void {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      this.events = [];
      this.byId = new Map();
      return;
    }
    if (stat.size === this.seen.size && stat.mtimeMs === this.seen.mtimeMs) return;
    this.seen = { size: stat.size, mtimeMs: stat.mtimeMs };
    const events: RouteEvent[] = [];
    const byId = new Map<string, RouteEvent>();
    let skipped = 0;
    for (const text of fs.readFileSync(this.file, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      let parsed;
      try {
        parsed = LogLine.safeParse(JSON.parse(text));
      } catch {
        skipped++;
        continue;
      }
      if (!parsed.success) {
        skipped++;
        continue;
      }
      const line = parsed.data;
      if (line.kind === 'route') {
        const { kind: _kind, ...event } = line;
        events.push(event);
        byId.set(event.route_id, event);
      } else {
        const event = byId.get(line.route_id);
        if (event) event.result = line.result;
      }
    }
    this.events = events;
    this.byId = byId;
    this.skipped = skipped;
  }
}
