import { useEffect } from 'react';
import type { SkillDetail } from '../../../../../shared/contract';
import { plural } from '../../../lib/format';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { CheckIcon, ErrorIcon, PlayIcon } from '../../../ui/icons';
import { formatRate } from '../../routing/format';
import { reportOf, useEvalsStore } from '../store';
import { EvalCaseForm } from './EvalCaseForm';
import { EvalCaseRow } from './EvalCaseRow';
import { DescriptionTuner } from './DescriptionTuner';
import '../evals.css';

const EXAMPLE = `[
  { "query": "organize my invoices from March", "should_trigger": true },
  { "query": "write an invoice to a client", "should_trigger": false }
]`;

/** Trigger evals of one skill, run against SkillDeck's own router (DESIGN §2, issue item 6). */
export function EvalsTab({ detail }: { detail: SkillDetail }) {
  const run = useEvalsStore((s) => s.runs[detail.id]);
  const runEvals = useEvalsStore((s) => s.run);
  const removeCase = useEvalsStore((s) => s.remove);
  const saving = useEvalsStore((s) => s.saves[detail.id]?.status === 'saving');
  const report = reportOf(run);

  // Evals are instant (the router runs in well under a millisecond a query): run on open.
  useEffect(() => {
    if (!run) void runEvals(detail.id);
  }, [run, runEvals, detail.id]);

  if (!report) {
    if (run?.status === 'error') {
      return (
        <Placeholder icon={<ErrorIcon size={22} />} tone="error" title="Could not run the evals">
          <p>{run.error}</p>
        </Placeholder>
      );
    }
    return (
      <div className="detail__loading">
        <Spinner label="Running evals" />
      </div>
    );
  }

  if (report.file === null) {
    return (
      <div className="evals-tab" data-testid="evals-tab" data-state="none">
        <Placeholder icon={<PlayIcon size={22} />} title="No trigger evals for this skill">
          <p>
            Add messages that should and should not select it: they are kept in the skill's{' '}
            <code>evals/trigger_evals.json</code>, and SkillDeck runs them against its router, here and with{' '}
            <code>skilldeck eval {detail.name}</code>.
          </p>
          <pre className="evals-tab__example">{EXAMPLE}</pre>
        </Placeholder>
        <EvalCaseForm id={detail.id} />
      </div>
    );
  }

  const allPassed = report.failed === 0;
  return (
    <div className="evals-tab" data-testid="evals-tab" data-state="ready">
      <div className="evals-tab__summary">
        <div
          className={`evals-tab__verdict${allPassed ? ' is-pass' : ' is-fail'}`}
          data-testid="evals-verdict"
        >
          {allPassed ? <CheckIcon size={16} /> : <ErrorIcon size={16} />}
          {allPassed
            ? `All ${plural(report.cases.length, 'case')} pass`
            : `${report.failed} of ${plural(report.cases.length, 'case')} fail`}
        </div>
        <dl className="evals-tab__stats">
          <div>
            <dt>Passed</dt>
            <dd data-testid="evals-passed">{report.passed}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd data-testid="evals-failed">{report.failed}</dd>
          </div>
          <div title="Of the queries that selected this skill, the share that should have">
            <dt>Precision</dt>
            <dd data-testid="evals-precision">{formatRate(report.precision)}</dd>
          </div>
          <div title="Of the queries that should select this skill, the share that did">
            <dt>Recall</dt>
            <dd data-testid="evals-recall">{formatRate(report.recall)}</dd>
          </div>
        </dl>
        <button
          type="button"
          className="button button--small"
          onClick={() => void runEvals(detail.id)}
          disabled={run?.status === 'running'}
          data-testid="evals-run"
        >
          <PlayIcon size={12} /> Run again
        </button>
      </div>
      {run?.status === 'error' && <p className="tone-red">{run.error}</p>}
      <p className="muted evals-tab__file">
        <code>{report.file}</code> · run against the current weights and T; nothing is recorded. Adding or
        removing a case changes the skill, so an “always allow” for it asks again.
      </p>
      <EvalCaseForm id={detail.id} />
      <table className="evals-table" data-testid="evals-table">
        <thead>
          <tr>
            <th />
            <th>Query</th>
            <th>Expected</th>
            <th>Router</th>
            <th>Score</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {report.cases.map((c, i) => (
            <EvalCaseRow
              key={i}
              evalCase={c}
              busy={saving}
              onRemove={(query) => void removeCase(detail.id, query)}
            />
          ))}
        </tbody>
      </table>
      <DescriptionTuner id={detail.id} cases={report.cases.length} />
    </div>
  );
}
