import { useEvalsStore, reportOf } from '../store';
import { statusInSentence } from '../words';

const sameQuery = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * What the last save or removal of a skill's eval case did, and whether the case passes the
 * router now. With `query`, only a save of that query is shown (the draft may have moved on).
 */
export function EvalSaveNote({ id, query }: { id: string; query?: string }) {
  const save = useEvalsStore((s) => s.saves[id]);
  const report = useEvalsStore((s) => reportOf(s.runs[id]));
  if (!save || save.status === 'saving' || (query !== undefined && !sameQuery(save.query, query)))
    return null;
  const quoted = `“${save.query.trim()}”`;
  if (save.status === 'error')
    return (
      <p className="eval-note tone-red" role="alert" data-testid="eval-save-note" data-state="error">
        Could not save {quoted}: {save.error}
      </p>
    );
  if (save.change === 'removed')
    return (
      <p className="eval-note muted" role="status" data-testid="eval-save-note" data-state="removed">
        Removed {quoted} from the evals.
      </p>
    );
  const saved = report?.cases.find((c) => sameQuery(c.query, save.query));
  const expected = save.should_trigger ? 'should trigger' : 'should not trigger';
  const what =
    save.change === 'added'
      ? `Added ${quoted}: ${expected}.`
      : save.change === 'updated'
        ? `Changed ${quoted} to ${expected}.`
        : `${quoted} is already a case: ${expected}.`;
  const verdict = !saved
    ? ''
    : saved.pass
      ? ' The router passes it.'
      : ` The router fails it: ${saved.triggered ? 'it selects the skill' : statusInSentence(saved.status)}${saved.primary ? `, chose ${saved.primary}` : ''}.`;
  return (
    <p
      className={`eval-note${saved && !saved.pass ? ' tone-amber' : ' muted'}`}
      role="status"
      data-testid="eval-save-note"
      data-state={save.change}
      data-pass={saved?.pass}
    >
      {what}
      {verdict}
      {report?.file && (
        <>
          {' '}
          Saved in <code>{report.file}</code>.
        </>
      )}
    </p>
  );
}
