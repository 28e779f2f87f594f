import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { useChatStore } from '../store';

/** The open conversation's title (renamed from the list), or that this is a new one. */
export function ThreadHeader() {
  const { active, activeId } = useChatStore(useShallow((s) => ({ active: s.active, activeId: s.activeId })));
  return (
    <header className="thread-header" data-testid="thread-header" data-conversation-id={activeId ?? ''}>
      <h1 className="thread-header__title">
        {activeId ? (active?.title ?? 'Conversation') : 'New conversation'}
      </h1>
      {active && active.turns > 0 && (
        <span className="thread-header__meta">{plural(active.turns, 'message')}</span>
      )}
    </header>
  );
}
