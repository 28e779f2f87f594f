import type { DescriptionCandidate, DescriptionTuning } from '../../../../../shared/contract';
import { Spinner } from '../../../ui/Spinner';
import { CheckIcon } from '../../../ui/icons';
import { useTuningStore } from '../tuning';

const score = (s: { passed: number; total: number }) => `${s.passed}/${s.total}`;

function Candidates({ tuning }: { tuning: DescriptionTuning }) {
  const best = tuning.best === null ? null : tuning.candidates[tuning.best];
  const rows: DescriptionCandidate[] = [tuning.baseline, ...tuning.candidates];
  return (
    <table className="evals-table tuner__table" data-testid="tuner-table">
      <thead>
        <tr>
          <th>Description</th>
          <th title="Cases the model saw">Learned</th>
          <th title="Cases held out of the model's sight">Held out</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.round} className={c === best ? 'is-best' : undefined} data-testid="tuner-row">
            <td>
              <span className="tuner__round">
                {c.round === 0 ? 'current' : `round ${c.round}`}
                {c === best && ' · best'}
              </span>
              <span className="tuner__text">{c.description}</span>
            </td>
            <td className="evals-table__score">{score(c.train)}</td>
            <td className="evals-table__score">{score(c.test)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * "Improve the description": the model rewrites it from the skill's trigger evals, and the router
 * scores each version on the cases the model saw and on cases held out of its sight, so a
 * description that only learned its examples shows as such. Applying writes it into SKILL.md.
 */
export function DescriptionTuner({ id, cases }: { id: string; cases: number }) {
  const state = useTuningStore((s) => s.byId[id]);
  const improve = useTuningStore((s) => s.improve);
  const apply = useTuningStore((s) => s.apply);
  const dismiss = useTuningStore((s) => s.dismiss);
  const tuning = state && 'tuning' in state ? state.tuning : undefined;
  const best = tuning && tuning.best !== null ? tuning.candidates[tuning.best] : null;

  return (
    <section className="tuner" data-testid="tuner" data-state={state?.status ?? 'idle'}>
      <div className="tuner__head">
        <h3>Improve the description</h3>
        <button
          type="button"
          className="button button--small"
          onClick={() => void improve(id)}
          disabled={state?.status === 'running' || state?.status === 'applying' || cases < 4}
          data-testid="tuner-start"
        >
          {tuning ? 'Try again' : 'Ask the model'}
        </button>
      </div>
      <p className="muted">
        The model rewrites the description from these cases; the router scores each version on the cases the
        model saw and on about 40 % held out of its sight.{cases < 4 && ' It needs at least 4 cases.'}
      </p>
      {state?.status === 'running' && (
        <p className="tuner__busy">
          <Spinner label="Tuning" /> Asking the model (up to 3 rounds)…
        </p>
      )}
      {state?.status === 'error' && (
        <p className="tone-red" role="alert" data-testid="tuner-error">
          {state.error}
        </p>
      )}
      {tuning && <Candidates tuning={tuning} />}
      {tuning && tuning.notes.length > 0 && <p className="muted">{tuning.notes.join(' · ')}</p>}
      {tuning && !best && state?.status !== 'error' && (
        <p data-testid="tuner-verdict">
          No version did better than the current one on the cases it learned from.
        </p>
      )}
      {best && (state?.status === 'ready' || state?.status === 'applying') && (
        <div className="tuner__actions">
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => void apply(id, best.description)}
            disabled={state.status === 'applying'}
            data-testid="tuner-apply"
          >
            Write round {best.round} into SKILL.md
          </button>
          <button type="button" className="button button--small" onClick={() => dismiss(id)}>
            Discard
          </button>
        </div>
      )}
      {state?.status === 'applied' && (
        <p className="tuner__done" role="status" data-testid="tuner-verdict">
          <CheckIcon size={14} /> Written into SKILL.md; the cases above ran again on it.
        </p>
      )}
    </section>
  );
}
