import { useEffect } from 'react';
import { ScorePanel } from '../../routing/components/ScorePanel';
import { WhyNotPanel } from '../../routing/components/WhyNotPanel';
import { useRoutingStore } from '../../routing/store';
import { ChatIntro } from './ChatIntro';
import { Composer } from './Composer';
import '../../routing/routing.css';
import '../chat.css';

export function ChatPage() {
  const start = useRoutingStore((s) => s.start);
  useEffect(start, [start]);

  return (
    <div className="chat-page" data-testid="chat-page">
      <section className="chat-page__conversation" aria-label="Conversation">
        <div className="chat-page__messages">
          <ChatIntro />
        </div>
        <Composer />
      </section>
      <aside className="chat-page__inspector" aria-label="Routing">
        <ScorePanel />
        <WhyNotPanel />
      </aside>
    </div>
  );
}
