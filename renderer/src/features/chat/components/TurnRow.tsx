import { memo } from 'react';
import type { ChatTurn } from '../../../../../shared/contract';
import { AnswerMessage } from './AnswerMessage';
import { UserMessage } from './UserMessage';

interface TurnRowProps {
  turn: ChatTurn;
  /** The conversation's last turn, with nothing running: it can be edited and retried. */
  current: boolean;
  editing: boolean;
  onEditing(turnId: string | null): void;
  onResend(message?: string): void;
}

/**
 * One message and its answer. Memoized: while an answer streams, only its own row renders again,
 * not every earlier message of a long conversation.
 */
export const TurnRow = memo(function TurnRow({ turn, current, editing, onEditing, onResend }: TurnRowProps) {
  return (
    <div className="turn" data-testid="turn" data-turn-id={turn.turn_id}>
      <UserMessage
        message={turn.message}
        editable={current}
        editing={editing}
        onEditing={(on) => onEditing(on ? turn.turn_id : null)}
        onResend={onResend}
      />
      <AnswerMessage turn={turn} last={current} onRetry={() => onResend()} />
    </div>
  );
});
