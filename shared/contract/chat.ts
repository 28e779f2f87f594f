import { z } from 'zod';
import { RunSandbox } from './execution';
import { RouteEvent } from './routing';

/**
 * Chat with skills (DESIGN §4, §7): conversations, turns and the steps a turn took. A turn's
 * JSON is the exact shape `skilldeck chat --json` prints.
 */

/** What one step of a turn was: a model call, a tool call, an approval, a skill run. */
export const ChatStepKind = z.enum(['model', 'tool', 'approval', 'run']);

export const ChatStepStatus = z.enum([
  'running',
  'waiting',
  'success',
  'failure',
  'error',
  'allowed',
  'denied',
  'blocked',
  'timeout',
  'cancelled',
  'refused',
]);
export type ChatStepStatus = z.infer<typeof ChatStepStatus>;

export const ChatStep = z.object({
  /** Stable within the turn, so the window updates a card in place. */
  id: z.string(),
  kind: ChatStepKind,
  /** The tool, skill or model name. */
  name: z.string(),
  status: ChatStepStatus,
  output: z.string().optional(),
  error: z.string().optional(),
  /** The tool call's arguments (tool steps). */
  input: z.unknown().optional(),
  /** The run behind a `run` step, or behind a `run_skill_script` tool call. */
  run_id: z.string().optional(),
  sandbox: RunSandbox.optional(),
  /** The approval request behind an `approval` step. */
  approval_id: z.string().optional(),
  /** How long a finished tool call or run took. */
  duration_ms: z.number().min(0).optional(),
  /**
   * A failed model step whose server asked to wait (a 429's Retry-After): the moment it may be
   * asked again. The window holds Retry back until then.
   */
  retry_at: z.string().optional(),
  /** How much of the answer had streamed when the step began, so text and steps interleave. */
  answer_offset: z.number().int().min(0).optional(),
});
export type ChatStep = z.infer<typeof ChatStep>;

export const ChatUsage = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /**
   * `false` when a model answered without saying what it used (some servers send no usage): the
   * counts then leave those answers out, and are no measure of the turn. Absent otherwise.
   */
  reported: z.literal(false).optional(),
});
export type ChatUsage = z.infer<typeof ChatUsage>;

/** How a turn ended; `no_model`: it needed a model and none is configured. */
export const ChatTurnStatus = z.enum([
  'running',
  'success',
  'failure',
  'denied',
  'blocked',
  'timeout',
  'cancelled',
  'error',
  'no_model',
]);
export type ChatTurnStatus = z.infer<typeof ChatTurnStatus>;

/** One turn: the DESIGN §7 `chat --json` shape plus ids and times. */
export const ChatTurn = z.object({
  conversation_id: z.string(),
  turn_id: z.string(),
  /** The user's message this turn answers. */
  message: z.string(),
  route: RouteEvent,
  steps: z.array(ChatStep),
  answer: z.string(),
  status: ChatTurnStatus,
  /** What went wrong and what to do next, when the status is not success. */
  error: z.string().optional(),
  usage: ChatUsage,
  /** The skill that produced the answer, if any. */
  skill: z.string().nullable(),
  /** Its id, when the model ran a skill the router did not list (absent in older turns). */
  skill_id: z.string().optional(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  turns: z.number().int(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const Conversation = ConversationSummary.extend({ history: z.array(ChatTurn) });
export type Conversation = z.infer<typeof Conversation>;

const ConversationId = z.string().min(1).max(128);
const Message = z
  .string()
  .min(1, 'the message is empty')
  .max(20_000, 'the message is longer than 20,000 characters')
  .refine((s) => s.trim().length > 0, 'the message is empty');

export const chatRequests = {
  /** Conversations, most recently used first; `query` filters by title and message text. */
  'chat.list': {
    input: z.object({ query: z.string().max(500).optional() }).strict(),
    output: z.object({ conversations: z.array(ConversationSummary) }),
  },
  /** One conversation with every turn. */
  'chat.get': { input: z.object({ id: ConversationId }).strict(), output: Conversation },
  /** A new empty conversation. */
  'chat.create': {
    input: z.object({ title: z.string().max(200).optional() }).strict(),
    output: ConversationSummary,
  },
  'chat.rename': {
    input: z.object({ id: ConversationId, title: z.string().trim().min(1).max(200) }).strict(),
    output: ConversationSummary,
  },
  'chat.delete': {
    input: z.object({ id: ConversationId }).strict(),
    output: z.object({ deleted: z.boolean() }),
  },
  /**
   * Send a message (a new conversation when `conversation_id` is omitted). Resolves at once;
   * `chat.delta`, `chat.step` and `chat.turnFinished` follow.
   */
  'chat.send': {
    input: z.object({ conversation_id: ConversationId.optional(), message: Message }).strict(),
    output: z.object({ conversation_id: z.string(), turn_id: z.string() }),
  },
  /** Stop a turn under way (its model stream and any run it started). */
  'chat.stop': {
    input: z.object({ turn_id: z.string().min(1).max(128) }).strict(),
    output: z.object({ stopped: z.boolean() }),
  },
  /** Send the last user message again, optionally edited; the last turn is replaced. */
  'chat.resend': {
    input: z.object({ conversation_id: ConversationId, message: Message.optional() }).strict(),
    output: z.object({ conversation_id: z.string(), turn_id: z.string() }),
  },
} as const;

export const chatEvents = {
  /** A turn started (its route is known). */
  'chat.turnStarted': ChatTurn,
  /**
   * Streamed answer text. `restart`: the answer starts over with this text (a fallback answers
   * afresh after a skill failed); what streamed before belongs to the failed step, not the answer.
   */
  'chat.delta': z.object({
    conversation_id: z.string(),
    turn_id: z.string(),
    text: z.string(),
    restart: z.boolean().optional(),
  }),
  /** A step was added or changed. */
  'chat.step': z.object({ conversation_id: z.string(), turn_id: z.string(), step: ChatStep }),
  /** A turn ended (any status). */
  'chat.turnFinished': ChatTurn,
  /** The conversation list changed (created, renamed, deleted, a turn added). */
  'chat.conversationsChanged': z.object({ conversations: z.array(ConversationSummary) }),
} as const;
