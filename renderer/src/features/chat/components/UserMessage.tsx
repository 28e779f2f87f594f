import { useState, type KeyboardEvent } from 'react';
import { Kbd } from '../../../ui/Kbd';
import { PencilIcon } from '../../../ui/icons';

interface UserMessageProps {
  message: string;
  /** Only the last message can be edited and sent again (`chat.resend` replaces the last turn). */
  editable: boolean;
  onResend(message: string): void;
}

/** What the user sent; the last one can be edited in place and sent again. */
export function UserMessage({ message, editable, onResend }: UserMessageProps) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(message);

  const submit = () => {
    if (!text.trim()) return;
    setEditing(false);
    onResend(text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Esc cancels the edit here; it must not reach the page, where it stops a running turn.
      event.stopPropagation();
      setEditing(false);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  if (editing) {
    return (
      <div className="user-message is-editing" data-testid="user-message-editor">
        <textarea
          className="user-message__editor"
          aria-label="Edit your message"
          value={text}
          autoFocus
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          data-testid="edit-input"
        />
        <div className="user-message__edit-actions">
          <span className="composer__hint">
            <Kbd>Enter</Kbd> send again · <Kbd>Esc</Kbd> cancel
          </span>
          <button type="button" className="button button--small" onClick={() => setEditing(false)}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--small button--primary"
            onClick={submit}
            disabled={!text.trim()}
            data-testid="edit-send"
          >
            Send again
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="user-message" data-testid="user-message">
      <p className="user-message__text">{message}</p>
      {editable && (
        <button
          type="button"
          className="icon-button user-message__edit"
          aria-label="Edit and send again"
          title="Edit and send again"
          onClick={() => {
            setText(message);
            setEditing(true);
          }}
          data-testid="edit-message"
        >
          <PencilIcon size={13} />
        </button>
      )}
    </div>
  );
}
