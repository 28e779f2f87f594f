import { PlusIcon } from '../../../ui/icons';
import { useEvalsStore } from '../store';
import { EvalSaveNote } from './EvalSaveNote';

/** Adds a query to a skill's trigger evals (what-users-ask §15); Enter saves it as "should trigger". */
export function EvalCaseForm({ id }: { id: string }) {
  const query = useEvalsStore((s) => s.drafts[id] ?? '');
  const setDraft = useEvalsStore((s) => s.setDraft);
  const save = useEvalsStore((s) => s.save);
  const busy = useEvalsStore((s) => s.saves[id]?.status === 'saving');
  const empty = query.trim() === '';

  const submit = async (shouldTrigger: boolean) => {
    if (empty || busy) return;
    // Cleared only if it still holds what was saved: the user may have typed the next one.
    if ((await save(id, query, shouldTrigger)) && useEvalsStore.getState().drafts[id] === query)
      setDraft(id, '');
  };

  return (
    <div className="eval-form" data-testid="eval-form">
      <form
        className="eval-form__row"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(true);
        }}
      >
        <input
          className="field__input eval-form__input"
          aria-label="A message to keep as an eval case"
          placeholder="A message a user might send…"
          value={query}
          maxLength={20_000}
          onChange={(event) => setDraft(id, event.target.value)}
          data-testid="eval-query"
        />
        <button
          type="submit"
          className="button button--small"
          disabled={empty || busy}
          data-testid="eval-add-trigger"
        >
          <PlusIcon size={12} /> Should trigger
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={empty || busy}
          onClick={() => void submit(false)}
          data-testid="eval-add-not"
        >
          <PlusIcon size={12} /> Should not
        </button>
      </form>
      <EvalSaveNote id={id} />
    </div>
  );
}
