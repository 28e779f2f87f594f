import type { EvalCase } from '../../../../../shared/contract';
import { CheckIcon, TrashIcon, XIcon } from '../../../ui/icons';
import { formatScore } from '../../routing/format';
import { statusInSentence } from '../words';

export function EvalCaseRow({
  evalCase,
  onRemove,
  busy,
}: {
  evalCase: EvalCase;
  onRemove: (query: string) => void;
  busy: boolean;
}) {
  const { query, should_trigger, triggered, pass, status, score, primary } = evalCase;
  return (
    <tr className={pass ? 'is-pass' : 'is-fail'} data-testid="eval-case" data-pass={pass}>
      <td className="evals-table__mark" aria-label={pass ? 'pass' : 'fail'}>
        {pass ? <CheckIcon size={14} /> : <XIcon size={14} />}
      </td>
      <td className="evals-table__query">{query}</td>
      <td>{should_trigger ? 'triggers' : 'does not trigger'}</td>
      <td>
        {triggered ? 'selected' : statusInSentence(status)}
        {!triggered && primary && <span className="muted"> · chose {primary}</span>}
      </td>
      <td className="evals-table__score">{formatScore(score)}</td>
      <td className="evals-table__remove">
        <button
          type="button"
          className="icon-button"
          aria-label={`Remove the case “${query.slice(0, 80)}”`}
          title="Remove this case from evals/trigger_evals.json"
          disabled={busy}
          onClick={() => onRemove(query)}
          data-testid="eval-remove"
        >
          <TrashIcon size={13} />
        </button>
      </td>
    </tr>
  );
}
