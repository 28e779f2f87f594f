import type { Ref } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SidebarIcon } from '../../../ui/icons';
import { plural } from '../../../lib/format';
import { useChatStore } from '../store';

interface ThreadHeaderProps {
  listOpen: boolean;
  onToggleList(): void;
  toggleRef?: Ref<HTMLButtonElement>;
}

/**
 * The open conversation's title (renamed from the list), or that this is a new one; in a
 * narrow window, the button that shows the conversation list (chat.css hides it otherwise).
 */
export function ThreadHeader({ listOpen, onToggleList, toggleRef }: ThreadHeaderProps) {
  const { active, activeId } = useChatStore(useShallow((s) => ({ active: s.active, activeId: s.activeId })));
  return (
    <header className="thread-header" data-testid="thread-header" data-conversation-id={activeId ?? ''}>
      <button
        type="button"
        className="icon-button thread-header__toggle"
        ref={toggleRef}
        onClick={onToggleList}
        aria-label="Conversations"
        aria-expanded={listOpen}
        aria-controls="conversation-list"
        title="Conversations"
        data-testid="conversations-toggle"
      >
        <SidebarIcon size={16} />
      </button>
      <h1 className="thread-header__title">
        {activeId ? (active?.title ?? 'Conversation') : 'New conversation'}
      </h1>
      {active && active.turns > 0 && (
        <span className="thread-header__meta">{plural(active.turns, 'message')}</span>
      )}
    </header>
  );
}
