import type { Violation } from '../../../../../shared/contract';
import { ShieldIcon } from '../../../ui/icons';
import { useRunsStore, widenable } from '../store';

/**
 * What the sandbox stopped, told exactly (what-users-ask #12), each offered as a permission
 * question: "allow this and run again" starts a new run that asks to widen the grant first.
 */
export function RunViolations({ runId, violations }: { runId: string; violations: Violation[] }) {
  const retry = useRunsStore((s) => s.retry);
  const busy = useRunsStore((s) => s.busy);
  return (
    <section
      className="run-section run-violations"
      aria-label="Blocked by the sandbox"
      data-testid="run-violations"
    >
      <h3 className="run-section__title">Blocked by the sandbox</h3>
      <ul>
        {violations.map((v) => (
          <li
            key={`${v.kind}:${v.target}`}
            className="run-violation"
            data-testid="run-violation"
            data-kind={v.kind}
          >
            <ShieldIcon size={14} />
            <span className="run-violation__message">{v.message}</span>
            {widenable(v) ? (
              <button
                type="button"
                className="button button--small"
                onClick={() => void retry(runId, v)}
                disabled={busy}
                data-testid="violation-allow"
              >
                Allow this for this skill and run again
              </button>
            ) : (
              <span className="run-violation__fixed" title="Only file paths and hosts can be granted">
                cannot be granted
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className="run-section__hint">
        Allowing asks you again first, with the widened permission shown. Sandbox blocks are never sent to
        repair.
      </p>
    </section>
  );
}
