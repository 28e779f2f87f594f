import { create } from 'zustand';
import type { ChatTurn, Conversation, ConversationSummary } from '../../../../shared/contract';
import { RpcFailure } from '../../../../shared/rpc';
import { client, errorMessage } from '../../lib/client';
import { createLatestRequester } from '../routing/latest';
import { useRoutingStore } from '../routing/store';
import { readOpenConversation, writeOpenConversation } from './preference';
import { appendDeltas, mergeLoaded, runningTurn, startedOver, upsertStep, upsertTurn } from './thread';

type Status = 'idle' | 'loading' | 'ready' | 'error';

export interface ChatState {
  listStatus: Status;
  listError: string | null;
  /** The conversation list as shown: every conversation, or those matching `query`. */
  conversations: ConversationSummary[];
  query: string;
  /** The open conversation; null is a new one that is created with its first message. */
  activeId: string | null;
  active: ConversationSummary | null;
  threadStatus: Status;
  threadError: string | null;
  /** The open conversation's turns, oldest first, the live one last. */
  turns: ChatTurn[];
  /** A send or resend is on its way to the engine. */
  sending: boolean;
  sendError: string | null;
}

export interface ChatActions {
  /** Loads the list and the remembered conversation and follows the chat events; later calls do nothing. */
  start(): void;
  setQuery(query: string): void;
  select(id: string | null): void;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Sends a message in the open conversation (creating it first if new); false when it did not go. */
  send(message: string): Promise<boolean>;
  /** Stops the open conversation's running turn (its model stream and any run). */
  stop(): void;
  /** Sends the last user message again, edited or not; the last turn is replaced. */
  resend(message?: string): Promise<void>;
  dismissSendError(): void;
}

type Store = ChatState & ChatActions;

let started = false;
/** Running turns of every conversation, so switching back to one shows its live turn. */
const live = new Map<string, ChatTurn>();

export const useChatStore = create<Store>()((set, get) => {
  const lists = createLatestRequester<string, ConversationSummary[]>(
    (query) =>
      client()
        .invoke('chat.list', query ? { query } : {})
        .then((r) => r.conversations),
    (conversations) => set({ conversations, listStatus: 'ready', listError: null }),
    (error) => set({ listStatus: 'error', listError: errorMessage(error) }),
  );

  // Streamed text is applied once per frame: a fast model sends many small deltas, and each
  // would otherwise re-render the Markdown of the whole answer.
  const deltas = new Map<string, string>();
  let frame = 0;
  const flushDeltas = () => {
    frame = 0;
    if (deltas.size === 0) return;
    const batch = new Map(deltas);
    deltas.clear();
    set((s) => ({ turns: appendDeltas(s.turns, batch) }));
  };

  const onTurn = (turn: ChatTurn) => {
    if (turn.status === 'running') live.set(turn.turn_id, turn);
    else live.delete(turn.turn_id);
    if (turn.conversation_id !== get().activeId) return;
    // Buffered text of this turn is in the turn itself by now.
    deltas.delete(turn.turn_id);
    const isNew = !get().turns.some((t) => t.turn_id === turn.turn_id);
    set((s) => ({ turns: upsertTurn(s.turns, turn) }));
    // The draft just went out, so the live preview is empty: show why this message went where it went.
    const routing = useRoutingStore.getState();
    if (isNew && turn.status === 'running' && routing.draft.trim() === '') routing.showRecorded(turn.route);
    // A finished turn's route carries its outcome (what ran, chosen by whom): an open panel shows it.
    else if (turn.status !== 'running' && routing.recorded?.route_id === turn.route.route_id)
      routing.showRecorded(turn.route);
  };

  const onConversations = (all: ConversationSummary[]) => {
    const { activeId, query } = get();
    const active = activeId ? (all.find((c) => c.id === activeId) ?? null) : null;
    if (activeId && !active) {
      // Deleted (here or in another window): the thread goes back to a new conversation.
      get().select(null);
    } else if (active) set({ active });
    if (query.trim()) lists.request(query.trim());
    else set({ conversations: all, listStatus: 'ready', listError: null });
  };

  const subscribe = () => {
    const c = client();
    c.on('chat.turnStarted', onTurn);
    c.on('chat.turnFinished', onTurn);
    c.on('chat.delta', ({ conversation_id, turn_id, text, restart }) => {
      const held = live.get(turn_id);
      if (held) {
        const base = restart ? startedOver(held) : held;
        live.set(turn_id, { ...base, answer: base.answer + text });
      }
      if (conversation_id !== get().activeId) return;
      if (restart) {
        // A fallback answers afresh: what the failed skill streamed is on its card, not the answer.
        deltas.delete(turn_id);
        set((s) => ({ turns: s.turns.map((t) => (t.turn_id === turn_id ? startedOver(t) : t)) }));
      }
      deltas.set(turn_id, (deltas.get(turn_id) ?? '') + text);
      if (!frame) frame = requestAnimationFrame(flushDeltas);
    });
    c.on('chat.step', ({ conversation_id, turn_id, step }) => {
      const held = live.get(turn_id);
      if (held) live.set(turn_id, upsertStep([held], turn_id, step)[0]);
      if (conversation_id !== get().activeId) return;
      // Steps and text keep their order on screen: pending text goes first.
      flushDeltas();
      set((s) => ({ turns: upsertStep(s.turns, turn_id, step) }));
    });
    c.on('chat.conversationsChanged', ({ conversations }) => onConversations(conversations));
  };

  const loadThread = (id: string) => {
    client()
      .invoke('chat.get', { id })
      .then(
        (conversation: Conversation) => {
          if (get().activeId !== id) return;
          const { history, ...summary } = conversation;
          const running = [...live.values()].filter((t) => t.conversation_id === id);
          set({ active: summary, turns: mergeLoaded(history, running), threadStatus: 'ready' });
        },
        (error: unknown) => {
          if (get().activeId !== id) return;
          // A remembered conversation deleted since (here or from the CLI): start a new one.
          if (error instanceof RpcFailure && error.code === 'not_found') get().select(null);
          else set({ threadStatus: 'error', threadError: errorMessage(error) });
        },
      );
  };

  return {
    listStatus: 'idle',
    listError: null,
    conversations: [],
    query: '',
    activeId: null,
    active: null,
    threadStatus: 'ready',
    threadError: null,
    turns: [],
    sending: false,
    sendError: null,

    start() {
      if (started) return;
      started = true;
      subscribe();
      set({ listStatus: 'loading' });
      lists.request('');
      const remembered = readOpenConversation();
      if (remembered) get().select(remembered);
    },

    setQuery(query) {
      set({ query });
      lists.request(query.trim());
    },

    select(id) {
      writeOpenConversation(id);
      deltas.clear();
      if (!id) {
        set({
          activeId: null,
          active: null,
          turns: [],
          threadStatus: 'ready',
          threadError: null,
          sendError: null,
        });
        return;
      }
      const summary = get().conversations.find((c) => c.id === id) ?? null;
      set({
        activeId: id,
        active: summary,
        turns: [],
        threadStatus: 'loading',
        threadError: null,
        sendError: null,
      });
      loadThread(id);
    },

    async rename(id, title) {
      const renamed = await client().invoke('chat.rename', { id, title });
      // The list follows `chat.conversationsChanged`; the header may be showing this one now.
      if (get().activeId === id) set({ active: renamed });
    },

    async remove(id) {
      await client().invoke('chat.delete', { id });
      if (get().activeId === id) get().select(null);
    },

    async send(message) {
      const { sending, turns } = get();
      if (sending || runningTurn(turns)) return false;
      set({ sending: true, sendError: null });
      try {
        let id = get().activeId;
        if (!id) {
          // Created first so the turn's events (which can beat the reply) already match the open one.
          const created = await client().invoke('chat.create', {});
          id = created.id;
          writeOpenConversation(id);
          set({ activeId: id, active: created, turns: [], threadStatus: 'ready' });
        }
        await client().invoke('chat.send', { conversation_id: id, message });
        return true;
      } catch (error) {
        set({ sendError: errorMessage(error) });
        return false;
      } finally {
        set({ sending: false });
      }
    },

    stop() {
      const turn = runningTurn(get().turns);
      if (!turn) return;
      client()
        .invoke('chat.stop', { turn_id: turn.turn_id })
        .catch((error: unknown) => set({ sendError: `Could not stop: ${errorMessage(error)}` }));
    },

    async resend(message) {
      const { activeId, turns, sending } = get();
      const last = turns.at(-1);
      if (!activeId || !last || sending || runningTurn(turns)) return;
      // The engine replaces the last turn; the window drops it now so the new one takes its place.
      set({ turns: turns.slice(0, -1), sending: true, sendError: null });
      try {
        await client().invoke('chat.resend', { conversation_id: activeId, ...(message ? { message } : {}) });
      } catch (error) {
        set((s) => ({
          turns: s.turns.some((t) => t.turn_id === last.turn_id) ? s.turns : [...s.turns, last],
          sendError: errorMessage(error),
        }));
      } finally {
        set({ sending: false });
      }
    },

    dismissSendError() {
      set({ sendError: null });
    },
  };
});
