import type { EvalCase } from '../../../../../shared/contract';
import { CheckIcon, XIcon } from '../../../ui/icons';
import { formatScore, STATUS_META } from '../../routing/format';

export function EvalCaseRow({ evalCase }: { evalCase: EvalCase }) {
  const { query, should_trigger, triggered, pass, status, score, primary } = evalCase;
  return (
    <tr className={pass ? 'is-pass' : 'is-fail'} data-testid="eval-case" data-pass={pass}>
      <td className="evals-table__mark" aria-label={pass ? 'pass' : 'fail'}>
        {pass ? <CheckIcon size={14} /> : <XIcon size={14} />}
      </td>
      <td className="evals-table__query">{query}</td>
      <td>{should_trigger ? 'triggers' : 'does not trigger'}</td>
      <td>
        {triggered ? 'selected' : STATUS_META[status].label.toLowerCase()}
        {!triggered && primary && <span className="muted"> · chose {primary}</span>}
      </td>
      <td className="evals-table__score">{formatScore(score)}</td>
    </tr>
  );
}
