import type { ChatTurn } from '../../../../../shared/contract';
import { plural } from '../../../lib/format';
import { CopyButton } from '../../../ui/CopyButton';
import { Markdown } from '../../../ui/Markdown';
import { RefreshIcon } from '../../../ui/icons';
import { answerParts, noticeError, turnNotice } from '../turnView';
import { RouteChip } from './RouteChip';
import { StepList } from './StepList';
import { TurnNoticeView } from './TurnNoticeView';

interface AnswerMessageProps {
  turn: ChatTurn;
  last: boolean;
  onRetry(): void;
}

/**
 * The answer to one message: its route, the streamed Markdown with each step where it happened,
 * and what to do if it failed.
 */
export function AnswerMessage({ turn, last, onRetry }: AnswerMessageProps) {
  const running = turn.status === 'running';
  // No-model and similar turns carry the message as the answer too; the notice says it once.
  const answer = turn.answer.trim() && turn.answer !== turn.error ? turn.answer : '';
  const tokens = turn.usage.input_tokens + turn.usage.output_tokens;
  const parts = answerParts(answer, turn.steps);
  const notice = turnNotice(turn);
  const shownError = notice ? noticeError(turn, notice) : '';
  return (
    <article
      className="answer"
      aria-label="Answer"
      aria-busy={running}
      data-testid="answer"
      data-turn-id={turn.turn_id}
      data-status={turn.status}
    >
      <header className="answer__header">
        <RouteChip turn={turn} />
      </header>
      {parts.map((part) =>
        part.kind === 'text' ? (
          <Markdown key={part.key} source={part.text} copyCode testId="answer-text" />
        ) : (
          <StepList key={part.key} steps={part.steps} shownError={shownError} />
        ),
      )}
      {/* Under way, the last thing shown is a card (or nothing yet): say what the turn waits for. */}
      {running && parts.at(-1)?.kind !== 'text' && (
        <p className="answer__pending">
          {turn.steps.some((s) => s.status === 'waiting') ? 'Waiting for your answer…' : 'Working…'}
        </p>
      )}
      <TurnNoticeView turn={turn} canRetry={last} onRetry={onRetry} />
      {!running && (
        <footer className="answer__footer">
          {answer && <CopyButton text={() => turn.answer} label="Copy answer" testId="copy-answer" />}
          {last && !turnNeedsNotice(turn) && (
            <button type="button" className="copy-action" onClick={onRetry} data-testid="answer-retry">
              <RefreshIcon size={13} />
              <span>Retry</span>
            </button>
          )}
          {tokens > 0 && (
            <span className="answer__usage" title="Tokens in / out">
              {plural(turn.usage.input_tokens, 'token')} in · {turn.usage.output_tokens} out
            </span>
          )}
        </footer>
      )}
    </article>
  );
}

/** A failed turn offers Retry in its notice; the footer offers it for the others. */
const turnNeedsNotice = (turn: ChatTurn) => turn.status !== 'success';
