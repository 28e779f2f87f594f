import { useState, type KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../../../../shared/contract';
import { errorMessage } from '../../../lib/client';
import { PencilIcon, TrashIcon } from '../../../ui/icons';
import { formatWhen } from '../format';

interface ConversationItemProps {
  conversation: ConversationSummary;
  active: boolean;
  onSelect(id: string): void;
  onRename(id: string, title: string): Promise<void>;
  onDelete(id: string): Promise<void>;
}

type Mode = { kind: 'view' } | { kind: 'rename' } | { kind: 'confirm' } | { kind: 'error'; message: string };

/** One conversation: open it, rename it in place (F2), delete it after a confirm (Delete). */
export function ConversationItem({
  conversation,
  active,
  onSelect,
  onRename,
  onDelete,
}: ConversationItemProps) {
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  const { id, title } = conversation;

  const commit = async (value: string) => {
    const next = value.trim();
    setMode({ kind: 'view' });
    if (!next || next === title) return;
    try {
      await onRename(id, next);
    } catch (error) {
      setMode({ kind: 'error', message: `Could not rename: ${errorMessage(error)}` });
    }
  };

  const remove = async () => {
    try {
      await onDelete(id);
    } catch (error) {
      setMode({ kind: 'error', message: `Could not delete: ${errorMessage(error)}` });
    }
  };

  const onRowKey = (event: KeyboardEvent) => {
    if (event.key === 'F2') setMode({ kind: 'rename' });
    else if (event.key === 'Delete') setMode({ kind: 'confirm' });
  };

  return (
    <li
      className={`conversation${active ? ' is-active' : ''}`}
      data-testid="conversation"
      data-conversation-id={id}
      data-title={title}
    >
      {mode.kind === 'rename' ? (
        <input
          className="conversation__rename"
          defaultValue={title}
          aria-label="Conversation title"
          maxLength={200}
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          onBlur={(event) => void commit(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
            if (event.key === 'Escape') {
              event.stopPropagation();
              setMode({ kind: 'view' });
            }
          }}
          data-testid="conversation-rename-input"
        />
      ) : (
        <button
          type="button"
          className="conversation__open"
          aria-current={active ? 'true' : undefined}
          onClick={() => onSelect(id)}
          onKeyDown={onRowKey}
          title={title}
        >
          <span className="conversation__title">{title}</span>
          <span className="conversation__meta">
            {formatWhen(conversation.updated_at)}
            {conversation.turns > 0 && ` · ${conversation.turns}`}
          </span>
        </button>
      )}
      {mode.kind === 'view' && (
        <span className="conversation__actions">
          <button
            type="button"
            className="icon-button"
            aria-label={`Rename “${title}”`}
            title="Rename (F2)"
            onClick={() => setMode({ kind: 'rename' })}
            data-testid="conversation-rename"
          >
            <PencilIcon size={13} />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`Delete “${title}”`}
            title="Delete (Del)"
            onClick={() => setMode({ kind: 'confirm' })}
            data-testid="conversation-delete"
          >
            <TrashIcon size={13} />
          </button>
        </span>
      )}
      {mode.kind === 'confirm' && (
        <div className="conversation__confirm" role="alertdialog" aria-label="Delete this conversation?">
          <span>Delete this conversation and its messages?</span>
          <button
            type="button"
            className="button button--small button--danger"
            onClick={() => void remove()}
            autoFocus
            data-testid="conversation-delete-confirm"
          >
            Delete
          </button>
          <button type="button" className="button button--small" onClick={() => setMode({ kind: 'view' })}>
            Cancel
          </button>
        </div>
      )}
      {mode.kind === 'error' && (
        <p className="conversation__error tone-red" role="alert">
          {mode.message}{' '}
          <button type="button" className="link-button" onClick={() => setMode({ kind: 'view' })}>
            Dismiss
          </button>
        </p>
      )}
    </li>
  );
}
