import { useEvalsStore } from '../store';
import { EvalSaveNote } from './EvalSaveNote';
import '../evals.css';

/**
 * Keeps the message being routed as a trigger eval of one skill, from the "Why not…?" panel:
 * a route that went wrong becomes a case the router is held to (what-users-ask §1, §15).
 */
export function SaveAsEval({ id, name, query }: { id: string; name: string; query: string }) {
  const save = useEvalsStore((s) => s.save);
  const busy = useEvalsStore((s) => s.saves[id]?.status === 'saving');
  return (
    <div className="save-as-eval" data-testid="save-as-eval">
      <p className="muted">
        Keep this message as a trigger eval of <strong>{name}</strong>, so the router is held to it:
      </p>
      <div className="save-as-eval__row">
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => void save(id, query, true)}
          data-testid="save-eval-trigger"
        >
          Should trigger
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => void save(id, query, false)}
          data-testid="save-eval-not"
        >
          Should not
        </button>
      </div>
      <EvalSaveNote id={id} query={query} />
    </div>
  );
}
