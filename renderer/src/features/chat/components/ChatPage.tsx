import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { ScorePanel } from '../../routing/components/ScorePanel';
import { WhyNotPanel } from '../../routing/components/WhyNotPanel';
import { useRoutingStore } from '../../routing/store';
import { useChatStore } from '../store';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { Thread } from './Thread';
import { ThreadHeader } from './ThreadHeader';
import '../../routing/routing.css';
import '../../routing/candidates.css';
import '../../routing/details.css';
import '../chat.css';
import '../composer.css';
import '../thread.css';
import '../steps.css';

export function ChatPage() {
  const startRouting = useRoutingStore((s) => s.start);
  const startChat = useChatStore((s) => s.start);
  const stop = useChatStore((s) => s.stop);
  useEffect(startRouting, [startRouting]);
  useEffect(startChat, [startChat]);

  // Esc anywhere in the conversation stops the running turn, and so does Esc on the page itself:
  // clicking the thread's text to read it leaves the focus on <body>, outside every handler.
  // Lists and editors inside take the key themselves when they use it (closing suggestions,
  // cancelling an edit); dialogs are outside the conversation and keep their own Esc.
  const conversationRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target as Node;
      if (target === document.body || conversationRef.current?.contains(target)) stop();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [stop]);

  // A narrow window folds the conversation list into a drawer over the thread (chat.css);
  // wide, the list is always there and this state does nothing.
  const [listOpen, setListOpen] = useState(false);
  const listRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const openList = () => {
    flushSync(() => setListOpen(true));
    listRef.current?.querySelector<HTMLElement>('button, input')?.focus();
  };
  const closeList = (refocus: boolean) => {
    setListOpen(false);
    if (refocus) toggleRef.current?.focus();
  };

  // ↑ in the empty message box opens the last message for editing, as the pencil does.
  const [editing, setEditing] = useState<string | null>(null);
  const lastTurn = useChatStore((s) => s.turns.at(-1)?.turn_id ?? null);

  return (
    <div className="chat-page" data-testid="chat-page" data-list-open={listOpen}>
      <ConversationList ref={listRef} onPicked={() => closeList(false)} onClose={() => closeList(true)} />
      {listOpen && <div className="chat-page__scrim" aria-hidden="true" onClick={() => closeList(false)} />}
      <section className="chat-page__conversation" aria-label="Conversation" ref={conversationRef}>
        <ThreadHeader
          toggleRef={toggleRef}
          listOpen={listOpen}
          onToggleList={() => (listOpen ? closeList(false) : openList())}
        />
        <Thread editing={editing} onEditing={setEditing} />
        <Composer onEditLast={lastTurn ? () => setEditing(lastTurn) : undefined} />
      </section>
      <aside className="chat-page__inspector" aria-label="Routing">
        <ScorePanel />
        <WhyNotPanel />
      </aside>
    </div>
  );
}
