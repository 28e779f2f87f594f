import type { ChatTurn } from '../../shared/contract';
import type { ConversationStore } from '../engine/chat/store';
import { answerApprovals, type ApprovalMode } from './approve';
import { onStopSignal, openEngine, refuse, type DiscoveryFlags } from './context';
import { forTerminal } from './terminal';

export interface ChatFlags extends DiscoveryFlags {
  json: boolean;
  approve: boolean;
  deny: boolean;
  conversation?: string;
}

const USAGE =
  'usage: skilldeck chat "MESSAGE" [--skills DIR]… [--no-default-paths] [--approve|--deny] [--conversation ID] [--json]\n';

function printTurn(turn: ChatTurn): void {
  const lines: string[] = [];
  for (const step of turn.steps) {
    if (step.kind === 'model' && step.status === 'success') continue;
    const sandbox = step.sandbox ? ` [${step.sandbox}]` : '';
    const error = step.error ? ` — ${step.error.split('\n')[0]}` : '';
    lines.push(`  · ${step.kind} ${step.name}: ${step.status}${sandbox}${error}`);
  }
  const route = turn.route.plan.primary
    ? `${turn.route.plan.primary}`
    : turn.skill
      ? `no skill; the model chose ${turn.skill}`
      : 'no skill (plain chat)';
  process.stderr.write(
    forTerminal(
      `\n${turn.status === 'success' ? '✓' : '✗'} ${turn.status} · route: ${route} · tokens ${turn.usage.input_tokens} in / ${turn.usage.output_tokens} out${turn.usage.reported === false ? ' (the server did not report all of them)' : ''}\n${lines.join('\n')}${turn.error && turn.error !== turn.answer ? `\n${turn.error}` : ''}\n`,
    ),
  );
}

/**
 * `chat "MESSAGE"`: one turn (DESIGN §7). The answer streams to stdout (or one JSON document
 * with `--json`); approvals follow `--approve` / `--deny`, a terminal is asked otherwise,
 * and with no terminal they are denied. Exit 0 when the turn succeeded, 1 otherwise.
 */
/** A damaged line in the conversation's log drops its turn from the history: say so. */
function warnUnreadable(store: ConversationStore, id: string): void {
  const lines = store.unreadableLines(id);
  if (lines === 0) return;
  const what = lines === 1 ? 'line of conversation' : 'lines of conversation';
  const turns = lines === 1 ? 'the turn on it is' : 'the turns on them are';
  process.stderr.write(
    forTerminal(
      `skilldeck: warning: ${lines} ${what} ${id} could not be read (${store.logPath(id)}); ${turns} left out of the history.\n`,
    ),
  );
}

/** Between the text of a skill's reply that stopped short and the fallback's answer after it. */
const RESTARTED = '(The reply above stopped short; the fallback answers:)';

export async function chatCommand(message: string, flags: ChatFlags): Promise<number> {
  if (!message.trim()) return refuse(`The message is empty.\n${USAGE}`, flags.json);
  if (flags.approve && flags.deny)
    return refuse(`--approve and --deny exclude each other.\n${USAGE}`, flags.json);
  // An empty id (an unset shell variable: --conversation "$CONV") would quietly start a new one.
  if (flags.conversation !== undefined && !flags.conversation.trim())
    return refuse(`--conversation needs a conversation id.\n${USAGE}`, flags.json);
  const engine = await openEngine(flags);
  try {
    if (flags.conversation) warnUnreadable(engine.chat.store, flags.conversation);
    const mode: ApprovalMode = flags.approve ? 'approve' : flags.deny ? 'deny' : 'ask';
    const stopAnswering = answerApprovals(engine, mode, flags.json);
    let streamed = '';
    const stopStreaming = flags.json
      ? () => undefined
      : engine.events.subscribe((name, payload) => {
          if (name !== 'chat.delta') return;
          const { text, restart } = payload as { text: string; restart?: boolean };
          // A fallback answers afresh: what streamed before it stays on screen, so say where it ends.
          if (restart && streamed) {
            process.stdout.write(`\n\n${RESTARTED}\n\n`);
            streamed = '';
          }
          streamed += text;
          process.stdout.write(forTerminal(text));
        });
    // Listening before the turn starts, as `run` does: sending writes the conversation, and a
    // Ctrl-C with no handler installed yet killed the process without its JSON.
    let turnId = '';
    const stopSignal = onStopSignal(() => engine.chat.stop(turnId));
    let sent;
    try {
      sent = engine.chat.send(flags.conversation, message);
    } catch (error) {
      stopSignal.off();
      return refuse((error as Error).message, flags.json);
    }
    turnId = sent.turn_id;
    const turn = await sent.done.finally(() => stopSignal.off());
    stopAnswering();
    stopStreaming();
    if (flags.json) process.stdout.write(`${JSON.stringify(turn)}\n`);
    else {
      // An answer the turn set whole (no model, a skill that cannot run here) or started afresh
      // after a failed stream was not streamed: print what the terminal has not shown.
      if (turn.answer.startsWith(streamed))
        process.stdout.write(forTerminal(turn.answer.slice(streamed.length)));
      else process.stdout.write(`\n\n${RESTARTED}\n\n${forTerminal(turn.answer)}`);
      // No answer (the model did not answer): nothing on stdout; the status line says why.
      if (turn.answer && !turn.answer.endsWith('\n')) process.stdout.write('\n');
      printTurn(turn);
    }
    // As repair and run: the turn as it stood is printed, and the exit says a signal stopped it.
    const signalled = stopSignal.status();
    if (signalled) return signalled;
    return turn.status === 'success' ? 0 : 1;
  } finally {
    await engine.close();
  }
}
