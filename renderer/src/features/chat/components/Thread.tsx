import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon } from '../../../ui/icons';
import { useChatStore } from '../store';
import { AnswerMessage } from './AnswerMessage';
import { ChatIntro } from './ChatIntro';
import { JumpToLatest } from './JumpToLatest';
import { UserMessage } from './UserMessage';

interface ThreadProps {
  /** The turn whose message is open for editing (only ever the last one), or null. */
  editing: string | null;
  onEditing(turnId: string | null): void;
}

/** The open conversation: each message with its answer, the live one streaming at the end. */
export function Thread({ editing, onEditing }: ThreadProps) {
  const { turns, status, error, activeId, running, select, resend } = useChatStore(
    useShallow((s) => ({
      turns: s.turns,
      status: s.threadStatus,
      error: s.threadError,
      activeId: s.activeId,
      running: s.turns.some((t) => t.status === 'running'),
      select: s.select,
      resend: s.resend,
    })),
  );
  const scroller = useRef<HTMLDivElement>(null);

  if (status === 'loading') {
    return (
      <div className="thread thread--center">
        <Spinner label="Loading the conversation" />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="thread thread--center">
        <Placeholder icon={<ErrorIcon size={22} />} tone="error" title="Could not open this conversation">
          <p>{error}</p>
          <button type="button" className="button button--small" onClick={() => select(activeId)}>
            Try again
          </button>
        </Placeholder>
      </div>
    );
  }
  if (turns.length === 0) {
    return (
      <div className="thread thread--center">
        <ChatIntro />
      </div>
    );
  }

  // column-reverse keeps the view pinned to the newest text while it streams, with no scroll
  // code, and leaves the reader where they are once they scroll up.
  return (
    <div className="thread-frame">
      <div className="thread" data-testid="thread" ref={scroller}>
        <div className="thread__turns" role="log" aria-label="Messages" aria-busy={running}>
          {turns.map((turn, i) => {
            const last = i === turns.length - 1;
            return (
              <div className="turn" key={turn.turn_id} data-testid="turn" data-turn-id={turn.turn_id}>
                <UserMessage
                  message={turn.message}
                  editable={last && !running}
                  editing={editing === turn.turn_id}
                  onEditing={(on) => onEditing(on ? turn.turn_id : null)}
                  onResend={(message) => void resend(message)}
                />
                <AnswerMessage turn={turn} last={last && !running} onRetry={() => void resend()} />
              </div>
            );
          })}
        </div>
      </div>
      <JumpToLatest scroller={scroller} />
    </div>
  );
}
