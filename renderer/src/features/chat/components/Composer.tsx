import { useState, type KeyboardEvent } from 'react';
import { Kbd } from '../../../ui/Kbd';
import { forcedNames } from '../../routing/format';
import { markInput } from '../../routing/perf';
import { useRoutingStore } from '../../routing/store';

const SEND_LATER = 'Sending arrives with the chat feature; the routing preview is live now.';

/** The chat composer. Typing routes live; sending is not built yet, so the message stays a draft. */
export function Composer() {
  const draft = useRoutingStore((s) => s.draft);
  const setDraft = useRoutingStore((s) => s.setDraft);
  const [triedToSend, setTriedToSend] = useState(false);
  const forced = forcedNames(draft);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    // Enter would send (Shift+Enter is a new line); until chat lands it only says so.
    event.preventDefault();
    if (draft.trim()) setTriedToSend(true);
  };

  return (
    <div className="composer" data-testid="composer-box">
      <textarea
        className="composer__input"
        placeholder="Message your skills…  try “organize my invoices from last month” or $json-format"
        aria-label="Message"
        rows={2}
        value={draft}
        spellCheck={false}
        autoFocus
        onChange={(event) => {
          setTriedToSend(false);
          setDraft(event.target.value, markInput());
        }}
        onKeyDown={onKeyDown}
        data-testid="composer"
      />
      <div className="composer__footer">
        <span className="composer__hint">
          {triedToSend ? (
            <span className="composer__draft-note" data-testid="composer-draft-note">
              Kept as a draft. {SEND_LATER}
            </span>
          ) : forced.length > 0 ? (
            <span data-testid="composer-forced">
              Forcing{' '}
              {forced.map((name) => (
                <code key={name}>{name}</code>
              ))}
            </span>
          ) : (
            <>
              <Kbd>Enter</Kbd> send · <Kbd>Shift</Kbd>+<Kbd>Enter</Kbd> new line · <code>$name</code> forces a
              skill
            </>
          )}
        </span>
        <span title={SEND_LATER} className="composer__send-wrap">
          <button type="button" className="button composer__send" disabled data-testid="composer-send">
            Send
          </button>
        </span>
      </div>
    </div>
  );
}
