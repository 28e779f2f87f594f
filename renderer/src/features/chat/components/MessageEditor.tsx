import { useState, type KeyboardEvent } from 'react';
import { Kbd } from '../../../ui/Kbd';

interface MessageEditorProps {
  message: string;
  onCancel(): void;
  onSend(message: string): void;
}

/** The last message opened for editing; it starts from the message as sent each time it opens. */
export function MessageEditor({ message, onCancel, onSend }: MessageEditorProps) {
  const [text, setText] = useState(message);

  const submit = () => {
    if (text.trim()) onSend(text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Esc cancels the edit here; it must not reach the page, where it stops a running turn.
      event.stopPropagation();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <div className="user-message is-editing" data-testid="user-message-editor">
      <textarea
        className="user-message__editor"
        aria-label="Edit your message"
        value={text}
        autoFocus
        // The caret at the end, where ↑ from the message box left the user typing.
        onFocus={(event) => event.currentTarget.setSelectionRange(text.length, text.length)}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        data-testid="edit-input"
      />
      <div className="user-message__edit-actions">
        <span className="composer__hint">
          <Kbd>Enter</Kbd> send again · <Kbd>Esc</Kbd> cancel
        </span>
        <button type="button" className="button button--small" onClick={onCancel}>
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
