import { randomBytes } from 'node:crypto';
import type { ChatTurn, Conversation, ConversationSummary, RouteOutcome } from '../../../shared/contract';
import { EngineError } from '../errors';
import type { EngineEvents } from '../events';
import type { ExecutionService } from '../execution/service';
import type { RoutingService } from '../routing';
import type { ModelChoice } from './modelLoop';
import { ConversationStore } from './store';
import { historyOf } from './prompts';
import { runTurn } from './turn';

export interface ChatDeps {
  home: string;
  events: EngineEvents;
  routing: RoutingService;
  execution: ExecutionService;
  model(): Promise<ModelChoice>;
}

const OUTCOMES = ['success', 'failure', 'denied', 'timeout', 'blocked', 'cancelled'] as const;
const outcomeOf = (status: ChatTurn['status']): RouteOutcome['status'] =>
  (OUTCOMES as readonly string[]).includes(status) ? (status as RouteOutcome['status']) : 'failure';

const newTurnId = () => `t-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/**
 * Conversations and turns (issue 8): each message is routed and recorded, run through the
 * executor or plain chat, streamed to the window, and appended to the conversation's log.
 */
export class ChatService {
  readonly store: ConversationStore;
  private readonly turns = new Map<string, AbortController>();
  /** Turns under way, so a reloaded window sees their text and steps so far. */
  private readonly live = new Map<string, ChatTurn>();
  /** Models that refused tools this session (plain chat asks them plainly from then on). */
  private readonly toolless = new Set<string>();

  constructor(private readonly deps: ChatDeps) {
    this.store = ConversationStore.at(deps.home);
  }

  list(query?: string): ConversationSummary[] {
    return this.store.list(query);
  }

  get(id: string): Conversation {
    const conversation = this.store.get(id);
    const running = [...this.live.values()].filter((t) => t.conversation_id === id);
    return { ...conversation, history: [...conversation.history, ...running] };
  }

  create(title?: string): ConversationSummary {
    const created = this.store.create(title);
    this.changed();
    return created;
  }

  rename(id: string, title: string): ConversationSummary {
    const renamed = this.store.rename(id, title);
    this.changed();
    return renamed;
  }

  delete(id: string): boolean {
    const deleted = this.store.delete(id);
    if (deleted) this.changed();
    return deleted;
  }

  /** Start a turn; resolves at once with its ids, `done` when it finished. */
  send(
    conversationId: string | undefined,
    message: string,
  ): { conversation_id: string; turn_id: string; done: Promise<ChatTurn> } {
    const conversation = conversationId ? this.store.get(conversationId) : { ...this.create(), history: [] };
    const turnId = newTurnId();
    const startedAt = new Date().toISOString();
    const controller = new AbortController();
    this.turns.set(turnId, controller);
    const done = (async (): Promise<ChatTurn> => {
      // A send may ask the embedding endpoint and the arbiter (issue 10); both fall back to
      // the local route on their own, and so does this.
      const route = await this.deps.routing
        .commitWithModel(message, 'chat')
        .catch(() => this.deps.routing.commit(message, 'chat'));
      const turn: ChatTurn = {
        conversation_id: conversation.id,
        turn_id: turnId,
        message,
        route,
        steps: [],
        answer: '',
        status: 'running',
        usage: { input_tokens: 0, output_tokens: 0 },
        skill: null,
        started_at: startedAt,
        finished_at: null,
      };
      this.live.set(turnId, turn);
      this.deps.events.emit('chat.turnStarted', turn);
      try {
        return await runTurn(
          turn,
          historyOf(conversation.history),
          { ...this.deps, choosable: () => this.deps.routing.choosable(), toolless: this.toolless },
          controller.signal,
        );
      } catch (error) {
        turn.status = 'error';
        turn.error = `The turn failed: ${(error as Error)?.message ?? String(error)}`;
        turn.finished_at = new Date().toISOString();
        return turn;
      }
    })()
      .then((finished) => this.complete(finished))
      .finally(() => {
        this.turns.delete(turnId);
        this.live.delete(turnId);
      });
    return { conversation_id: conversation.id, turn_id: turnId, done };
  }

  /** Send the last user message again (edited or not); the last turn is replaced. */
  resend(conversationId: string, message?: string) {
    const history = this.store.turns(conversationId);
    const last = history[history.length - 1];
    if (!last) throw new EngineError('invalid_params', 'This conversation has no message to send again.');
    this.store.retract(conversationId, last.turn_id);
    return this.send(conversationId, message ?? last.message);
  }

  stop(turnId: string): boolean {
    const controller = this.turns.get(turnId);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  close(): void {
    for (const controller of this.turns.values()) controller.abort();
  }

  private complete(turn: ChatTurn): ChatTurn {
    this.live.delete(turn.turn_id);
    // Tokens in/out go into the route event and Activity (issue 8 item 5).
    const skillId = turn.skill_id ?? turn.route.candidates.find((c) => c.name === turn.skill)?.id;
    try {
      const recorded = this.deps.routing.recordResult(turn.route.route_id, {
        status: outcomeOf(turn.status),
        ...(skillId && turn.skill ? { skill_id: skillId, skill: turn.skill } : {}),
        // Another skill, or plain chat after the planned skill failed, answered.
        fallback_used: turn.route.plan.primary !== null && turn.skill !== turn.route.plan.primary,
        // The router chose none; the model ran one of the skills plain chat offered it.
        ...(turn.route.plan.primary === null && skillId ? { chosen_by_model: true } : {}),
        tokens_in: turn.usage.input_tokens,
        tokens_out: turn.usage.output_tokens,
        duration_ms: Date.now() - Date.parse(turn.started_at),
      });
      // The turn keeps its route with the outcome, so its score panel can say what ran.
      turn.route = recorded;
    } catch {
      // The route already has an outcome (or the log lost it): the turn itself is kept.
    }
    try {
      this.store.appendTurn(turn);
    } catch {
      // The conversation was deleted while the turn ran: nothing to append to.
    }
    this.deps.events.emit('chat.turnFinished', turn);
    this.changed();
    return turn;
  }

  private changed(): void {
    this.deps.events.emit('chat.conversationsChanged', { conversations: this.store.list() });
  }
}
