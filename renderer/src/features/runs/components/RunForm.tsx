import { useId, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SkillDetail } from '../../../../../shared/contract';
import { Spinner } from '../../../ui/Spinner';
import { PlayIcon } from '../../../ui/icons';
import { entrypointOptions, inputExample, parseInput, takesInput } from '../input';
import { EMPTY_DRAFT, useRunsStore } from '../store';

/** Task text, entrypoint and JSON input for one run of this skill; Run → `run.start`. */
export function RunForm({ detail }: { detail: SkillDetail }) {
  const { draft, busy, setDraft, startRun } = useRunsStore(
    useShallow((s) => ({
      draft: s.drafts[detail.id] ?? EMPTY_DRAFT,
      busy: s.busy,
      setDraft: s.setDraft,
      startRun: s.startRun,
    })),
  );
  const ids = useId();
  const options = entrypointOptions(detail);
  const example = inputExample(detail);
  const parsed = parseInput(draft.inputText);
  const entrypoint = draft.entrypoint || options[0]?.value || '';
  const chosen = options.find((o) => o.value === entrypoint);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.ok || busy) return;
    const input = Object.keys(parsed.value).length ? { input: parsed.value } : {};
    void startRun(detail.id, { task: draft.task, ...(entrypoint ? { entrypoint } : {}), ...input });
  };

  return (
    <form className="run-form" onSubmit={submit} data-testid="run-form" aria-label={`Run ${detail.name}`}>
      <label className="field" htmlFor={`${ids}-task`}>
        <span className="field__label">Task</span>
        <textarea
          id={`${ids}-task`}
          className="field__input run-form__task"
          value={draft.task}
          onChange={(e) => setDraft(detail.id, { task: e.target.value })}
          onKeyDown={(e) => {
            // Ctrl/⌘+Enter runs from the text; a plain Enter is a new line.
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
          }}
          placeholder={detail.metadata.argumentHint ?? 'What should it do? Sent as `task`.'}
          rows={2}
          maxLength={20_000}
          data-testid="run-task-input"
        />
      </label>
      {options.length > 1 && (
        <label className="field" htmlFor={`${ids}-entry`}>
          <span className="field__label">Entrypoint</span>
          <select
            id={`${ids}-entry`}
            className="field__input"
            value={entrypoint}
            onChange={(e) => setDraft(detail.id, { entrypoint: e.target.value })}
            data-testid="run-entrypoint"
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {chosen && (
        <p className="field__hint" data-testid="run-entrypoint-note">
          Runs <code>{chosen.label}</code>
          {chosen.description ? `: ${chosen.description}` : ''}
        </p>
      )}
      {takesInput(detail.type) && (
        <div className="field">
          <div className="run-form__input-head">
            <label className="field__label" htmlFor={`${ids}-input`}>
              Input (JSON object
              {detail.type === 'script' ? ', sent as INPUT_JSON with the task' : ', fills {{input.…}}'})
            </label>
            {example && (
              <button
                type="button"
                className="link-button"
                onClick={() => setDraft(detail.id, { inputText: example })}
                data-testid="run-input-example"
              >
                {detail.type === 'direct' ? 'Fill in the template’s fields' : 'Use the example from SKILL.md'}
              </button>
            )}
          </div>
          <textarea
            id={`${ids}-input`}
            className={`field__input run-form__json${parsed.ok ? '' : ' is-invalid'}`}
            value={draft.inputText}
            onChange={(e) => setDraft(detail.id, { inputText: e.target.value })}
            placeholder="{ }"
            spellCheck={false}
            rows={4}
            aria-invalid={!parsed.ok}
            aria-describedby={`${ids}-input-error`}
            data-testid="run-input"
          />
          <span
            id={`${ids}-input-error`}
            className={parsed.ok ? 'field__hint' : 'field__hint tone-red'}
            data-testid="run-input-status"
          >
            {parsed.ok ? (
              <>
                Optional; <code>task</code> is always sent.
              </>
            ) : (
              parsed.error
            )}
          </span>
        </div>
      )}
      <div className="run-form__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={busy || !parsed.ok}
          data-testid="run-start"
        >
          {busy ? <Spinner label="Starting" /> : <PlayIcon size={13} />}
          Run {detail.name}
        </button>
      </div>
    </form>
  );
}
