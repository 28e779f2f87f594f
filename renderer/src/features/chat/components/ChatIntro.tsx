import { RouteIcon } from '../../../ui/icons';
import { markInput } from '../../routing/perf';
import { useRoutingStore } from '../../routing/store';

const EXAMPLES = [
  'organize my invoices from last month',
  '帮我整理发票',
  '$json-format {"b":1,"a":[2,3]}',
  'summarize this CSV of sales by region',
  'translate this paragraph into Chinese',
];

/** An empty conversation explains the live preview and offers examples to start from. */
export function ChatIntro() {
  const setDraft = useRoutingStore((s) => s.setDraft);
  return (
    <div className="chat-intro" data-testid="chat-intro">
      <div className="chat-intro__icon">
        <RouteIcon size={22} />
      </div>
      <h2>See which skill will run before you send</h2>
      <p>
        SkillDeck routes locally: as you type, every skill is scored on intent, triggers, track record,
        readiness, cost and conflicts. The panel shows the winner, the near-misses under the threshold, and
        why. Every step a skill takes shows up in its answer, and anything that runs a command asks you first.
      </p>
      <div className="chat-intro__examples">
        {EXAMPLES.map((example) => (
          <button
            key={example}
            type="button"
            className="chat-intro__example"
            onClick={() => setDraft(example, markInput())}
          >
            {example}
          </button>
        ))}
      </div>
    </div>
  );
}
