import { PencilIcon } from '../../../ui/icons';
import { COMPOSER_ID } from './Composer';
import { MessageEditor } from './MessageEditor';

interface UserMessageProps {
  message: string;
  /** Only the last message can be edited and sent again (`chat.resend` replaces the last turn). */
  editable: boolean;
  /** The editor is open: from its pencil button, or ↑ in an empty message box. */
  editing: boolean;
  onEditing(editing: boolean): void;
  onResend(message: string): void;
}

/** What the user sent; the last one can be edited in place and sent again. */
export function UserMessage({ message, editable, editing, onEditing, onResend }: UserMessageProps) {
  // The editor goes away with the focus in it: back to the message box, not the page.
  const close = () => {
    onEditing(false);
    document.getElementById(COMPOSER_ID)?.focus();
  };

  if (editing && editable) {
    return (
      <MessageEditor
        message={message}
        onCancel={close}
        onSend={(text) => {
          close();
          onResend(text);
        }}
      />
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
          title="Edit and send again (↑ in an empty message box)"
          onClick={() => onEditing(true)}
          data-testid="edit-message"
        >
          <PencilIcon size={13} />
        </button>
      )}
    </div>
  );
}
