import readline from 'node:readline';
import type { ApprovalRequest } from '../../shared/contract';
import type { Engine } from '../engine';
import { oneLine } from './terminal';

/** How the CLI answers approval requests (DESIGN §7). */
export type ApprovalMode = 'approve' | 'deny' | 'ask';

/** What the terminal asks about: each field on its line, whatever a skill put in its paths or arguments. */
export function describeRequest(r: ApprovalRequest): string {
  const net = r.network === false ? 'none' : r.network === true ? 'any host' : r.network.join(', ');
  const lines = [
    `${r.skill}${r.version ? ` ${r.version}` : ''} wants to run:`,
    `  ${r.command_line}`,
    `  in       ${r.cwd}`,
    `  sandbox  ${r.sandbox}${r.unenforced.length ? ` — NOT enforced here: ${r.unenforced.join('; ')}` : ''}`,
    `  reads    ${r.reads.join(', ')}`,
    `  writes   ${r.writes.join(', ')}`,
    `  network  ${net}`,
    `  env      ${r.env.join(', ')}`,
    `  because  ${r.reasons.join('; ')}`,
  ];
  if (r.widen) lines.push(`  WIDENS   ${r.widen.kind} ${r.widen.target}`);
  return lines.map(oneLine).join('\n');
}

/**
 * One line from the terminal; null when the user pressed Ctrl-C there. readline puts the terminal
 * in raw mode for the question, so Ctrl-C arrives as a key and not as SIGINT, and Ctrl-D ends the
 * input without an answer: either left the question open until the broker's timeout.
 */
function prompt(question: string): Promise<string | null> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    let answered = false;
    const settle = (answer: string | null) => {
      if (answered) return;
      answered = true;
      rl.close();
      resolve(answer);
    };
    rl.question(question, (answer) => settle(answer.trim().toLowerCase()));
    rl.on('SIGINT', () => {
      process.stderr.write('^C\n');
      settle(null);
    });
    // End of input (Ctrl-D) without an answer: no.
    rl.on('close', () => {
      if (!answered) process.stderr.write('\n');
      settle('');
    });
  });
}

/**
 * Answer every approval request the engine raises: `--approve` allows once, `--deny`
 * denies, and without either a terminal is asked; with no terminal the answer is deny.
 * Returns the unsubscribe function.
 */
export function answerApprovals(engine: Engine, mode: ApprovalMode, quiet: boolean): () => void {
  const interactive = mode === 'ask' && process.stdin.isTTY === true && process.stderr.isTTY === true;
  return engine.events.subscribe((name, payload) => {
    if (name !== 'approval.requested') return;
    const request = payload as ApprovalRequest;
    const broker = engine.execution.broker;
    // DESIGN §4, never a silent downgrade: rules this sandbox cannot enforce are told on
    // stderr even with --json (stdout stays the one JSON document).
    if (!quiet || interactive || request.unenforced.length > 0)
      process.stderr.write(`\n${describeRequest(request)}\n`);
    if (mode === 'approve') {
      broker.answer(request.id, 'allow_once', '--approve', 'flag');
    } else if (mode === 'deny') {
      broker.answer(request.id, 'deny', 'denied with --deny', 'flag');
    } else if (!interactive) {
      broker.answer(
        request.id,
        'deny',
        'no terminal to ask, and neither --approve nor --deny was given',
        'policy',
      );
    } else {
      void prompt('Allow? [y] once, [a] always for this skill version, [N] deny: ').then((answer) => {
        // Ctrl-C stops the command as it does anywhere else: the stop handler (context.ts
        // onStopSignal) cancels the run, which denies the question, and the exit is 130.
        if (answer === null) return void process.kill(process.pid, 'SIGINT');
        const decision =
          answer === 'y' || answer === 'yes' ? 'allow_once' : answer === 'a' ? 'allow_always' : 'deny';
        try {
          broker.answer(request.id, decision);
        } catch {
          // Already answered (timeout): the run reports it.
        }
      });
    }
  });
}
