import type { KeyboardEvent, Ref } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PlusIcon, SearchIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useChatStore } from '../store';
import { ConversationItem } from './ConversationItem';

/** Up and Down move between conversations, like any list. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
  if (!step) return;
  const rows = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.conversation__open')];
  const at = rows.indexOf(event.target as HTMLButtonElement);
  if (at === -1) return;
  event.preventDefault();
  rows[Math.min(Math.max(at + step, 0), rows.length - 1)]?.focus();
}

interface ConversationListProps {
  ref?: Ref<HTMLElement>;
  /** A conversation was opened or a new one started (a narrow window closes its drawer). */
  onPicked?(): void;
  /** Esc in the list (a narrow window closes its drawer). */
  onClose?(): void;
}

/** The conversations, most recently used first, with search, new, rename and delete. */
export function ConversationList({ ref, onPicked, onClose }: ConversationListProps) {
  const { conversations, status, error, query, activeId, setQuery, select, rename, remove } = useChatStore(
    useShallow((s) => ({
      conversations: s.conversations,
      status: s.listStatus,
      error: s.listError,
      query: s.query,
      activeId: s.activeId,
      setQuery: s.setQuery,
      select: s.select,
      rename: s.rename,
      remove: s.remove,
    })),
  );

  return (
    <aside
      className="conversation-list"
      id="conversation-list"
      aria-label="Conversations"
      ref={ref}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) onClose?.();
      }}
      data-testid="conversation-list"
    >
      <div className="conversation-list__top">
        <button
          type="button"
          className="button conversation-list__new"
          onClick={() => {
            select(null);
            onPicked?.();
          }}
          data-testid="new-conversation"
        >
          <PlusIcon size={14} />
          New chat
        </button>
        <label className="conversation-list__search">
          <SearchIcon size={13} />
          <input
            type="search"
            placeholder="Search chats"
            aria-label="Search chats"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && query) {
                event.stopPropagation();
                setQuery('');
              }
            }}
            data-testid="conversation-search"
          />
        </label>
      </div>
      {status === 'loading' && conversations.length === 0 && <Spinner label="Loading conversations" />}
      {status === 'error' && <p className="conversation-list__note tone-red">{error}</p>}
      {status === 'ready' && conversations.length === 0 && (
        <p className="conversation-list__note" data-testid="conversation-list-empty">
          {query.trim()
            ? `No conversation mentions “${query.trim()}”.`
            : 'Your conversations will be listed here.'}
        </p>
      )}
      <ul className="conversation-list__items" onKeyDown={moveFocus}>
        {conversations.map((c) => (
          <ConversationItem
            key={c.id}
            conversation={c}
            active={c.id === activeId}
            onSelect={(id) => {
              select(id);
              onPicked?.();
            }}
            onRename={rename}
            onDelete={remove}
          />
        ))}
      </ul>
    </aside>
  );
}
