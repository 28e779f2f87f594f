import { useId, useMemo, useRef, type KeyboardEvent, type SyntheticEvent } from 'react';
import { flushSync } from 'react-dom';
import { useShallow } from 'zustand/react/shallow';
import { Kbd } from '../../../ui/Kbd';
import { ArrowUpIcon, StopIcon, XIcon } from '../../../ui/icons';
import { forcedHint } from '../../routing/format';
import { markInput } from '../../routing/perf';
import { useRoutingStore } from '../../routing/store';
import { useSkillsStore } from '../../skills/store';
import { useChatStore } from '../store';
import { runningTurn } from '../thread';
import { useSkillAutocomplete } from '../useSkillAutocomplete';
import { optionId, SkillSuggestions } from './SkillSuggestions';

const hasModifier = (event: KeyboardEvent) =>
  event.shiftKey || event.altKey || event.ctrlKey || event.metaKey;

/** The message box's id, for controls elsewhere that hand the focus back to it. */
export const COMPOSER_ID = 'chat-composer';

/** The chat composer: typing routes live; Enter sends, Shift+Enter is a new line, Esc stops. */
interface ComposerProps {
  /** Opens the last message for editing (↑ in the empty box); absent when there is none. */
  onEditLast?: () => void;
}

export function Composer({ onEditLast }: ComposerProps) {
  const draft = useRoutingStore((s) => s.draft);
  const setDraft = useRoutingStore((s) => s.setDraft);
  const { running, sending, sendError, send, stop, dismissSendError } = useChatStore(
    useShallow((s) => ({
      running: runningTurn(s.turns) !== undefined,
      sending: s.sending,
      sendError: s.sendError,
      send: s.send,
      stop: s.stop,
      dismissSendError: s.dismissSendError,
    })),
  );
  const input = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const complete = useSkillAutocomplete(draft, (text, caret) => {
    // The caret can only be placed once React wrote the new value into the textarea.
    flushSync(() => setDraft(text, markInput()));
    input.current?.setSelectionRange(caret, caret);
  });
  const index = useSkillsStore((s) => s.index);
  const skillNames = useMemo(() => new Set(index.map((item) => item.skill.name.toLowerCase())), [index]);
  const { forcing, unknown } = forcedHint(draft, skillNames);
  const canSend = draft.trim() !== '' && !running && !sending;

  const submit = async () => {
    if (!canSend) return;
    const message = draft;
    setDraft('');
    const sent = await send(message);
    // A refused message comes back into the composer, unless the user already typed another.
    if (!sent && useRoutingStore.getState().draft === '') setDraft(message);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing || complete.onKeyDown(event)) return;
    // As in most chat apps: ↑ in an empty box edits the last message (nothing typed is lost).
    if (event.key === 'ArrowUp' && draft === '' && !running && onEditLast && !hasModifier(event)) {
      event.preventDefault();
      onEditLast();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    void submit();
  };

  const track = (event: SyntheticEvent<HTMLTextAreaElement>) =>
    complete.track(event.currentTarget.value, event.currentTarget.selectionStart);

  return (
    <div className="composer" data-testid="composer-box">
      {complete.open && complete.token && (
        <SkillSuggestions
          id={listId}
          trigger={complete.token.trigger}
          options={complete.matches}
          active={complete.active}
          onHover={complete.setActive}
          onChoose={complete.choose}
        />
      )}
      <textarea
        ref={input}
        id={COMPOSER_ID}
        className="composer__input"
        placeholder="Message your skills…  try “organize my invoices from last month”, or type $ to pick a skill"
        aria-label="Message"
        // A textarea may not take the combobox role (ARIA in HTML); as a textbox it still names its list.
        aria-autocomplete="list"
        aria-controls={complete.open ? listId : undefined}
        aria-activedescendant={complete.open ? optionId(listId, complete.active) : undefined}
        rows={2}
        value={draft}
        spellCheck={false}
        autoFocus
        onChange={(event) => {
          setDraft(event.target.value, markInput());
          track(event);
        }}
        onSelect={track}
        onKeyDown={onKeyDown}
        data-testid="composer"
      />
      <div className="composer__footer">
        <span className="composer__hint" aria-live="polite">
          {sendError ? (
            <span className="composer__error" role="alert" data-testid="composer-error">
              {sendError}
              <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismissSendError}>
                <XIcon size={12} />
              </button>
            </span>
          ) : running ? (
            <span data-testid="composer-running">
              Answering… <Kbd>Esc</Kbd> stops
            </span>
          ) : forcing.length > 0 || unknown.length > 0 ? (
            <span data-testid="composer-forced">
              {forcing.length > 0 && 'Forcing '}
              {forcing.map((name) => (
                <code key={name}>{name}</code>
              ))}
              {unknown.length > 0 && (
                <span className="tone-amber" data-testid="composer-unknown-skill">
                  {forcing.length > 0 && ' · '}No skill named{' '}
                  {unknown.map((name) => (
                    <code key={name}>{name}</code>
                  ))}
                </span>
              )}
            </span>
          ) : (
            <>
              <Kbd>Enter</Kbd> send · <Kbd>Shift</Kbd>+<Kbd>Enter</Kbd> new line · <code>$</code> picks a
              skill
            </>
          )}
        </span>
        {running ? (
          <button
            type="button"
            className="button composer__stop"
            onClick={() => {
              // Send takes Stop's place disabled: the focus would fall to the page.
              stop();
              input.current?.focus();
            }}
            data-testid="composer-stop"
          >
            <StopIcon size={13} />
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button composer__send"
            disabled={!canSend}
            onClick={() => void submit()}
            data-testid="composer-send"
          >
            <ArrowUpIcon size={13} />
            Send
          </button>
        )}
      </div>
    </div>
  );
}
