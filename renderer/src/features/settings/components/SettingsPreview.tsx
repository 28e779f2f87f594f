import { useEffect } from 'react';
import { ScorePanel } from '../../routing/components/ScorePanel';
import { markInput } from '../../routing/perf';
import { useRoutingStore } from '../../routing/store';

/** The composer's draft, scored live beside the knobs: moving a weight moves these bars. */
export function SettingsPreview() {
  const draft = useRoutingStore((s) => s.draft);
  const setDraft = useRoutingStore((s) => s.setDraft);
  const start = useRoutingStore((s) => s.start);
  useEffect(start, [start]);

  return (
    <aside className="settings-preview" aria-label="Live preview">
      <label className="settings-preview__query">
        <span>Try a message</span>
        <input
          className="settings-preview__input"
          value={draft}
          placeholder="organize my invoices from last month"
          spellCheck={false}
          onChange={(event) => setDraft(event.target.value, markInput())}
          data-testid="settings-preview-query"
        />
      </label>
      <ScorePanel live />
    </aside>
  );
}
