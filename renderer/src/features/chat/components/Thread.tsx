import { useCallback, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon } from '../../../ui/icons';
import { plural } from '../../../lib/format';
import { useChatStore } from '../store';
import { ChatIntro } from './ChatIntro';
import { JumpToLatest } from './JumpToLatest';
import { TurnRow } from './TurnRow';

/** Messages shown when a conversation opens, and added by each "Show earlier". */
const PAGE = 30;

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
  // A long conversation opens with its newest messages only: hundreds of rendered answers took
  // tens of seconds to open. Earlier ones come a page at a time, above, without moving the view.
  const [shown, setShown] = useState({ id: activeId, count: PAGE });
  const count = shown.id === activeId ? shown.count : PAGE;
  const hidden = Math.max(0, turns.length - count);
  const onResend = useCallback((message?: string) => void resend(message), [resend]);

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
          {hidden > 0 && (
            <button
              type="button"
              className="button button--small thread__earlier"
              onClick={() => setShown({ id: activeId, count: count + PAGE })}
              data-testid="show-earlier"
            >
              Show {plural(Math.min(PAGE, hidden), 'earlier message')} ({hidden} not shown)
            </button>
          )}
          {turns.slice(hidden).map((turn, i) => (
            <TurnRow
              key={turn.turn_id}
              turn={turn}
              current={hidden + i === turns.length - 1 && !running}
              editing={editing === turn.turn_id}
              onEditing={onEditing}
              onResend={onResend}
            />
          ))}
        </div>
      </div>
      <JumpToLatest scroller={scroller} />
    </div>
  );
}
