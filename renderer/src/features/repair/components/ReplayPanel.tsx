import type { ReplayResult } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { CheckIcon, ErrorIcon, WarningIcon } from '../../../ui/icons';
import { formatDuration } from '../../runs/model';
import { VERDICT_LOOKS } from '../model';

const ICONS = {
  passes: <CheckIcon size={12} />,
  fails_differently: <WarningIcon size={12} />,
  same_failure: <ErrorIcon size={12} />,
};

/**
 * The failing run, re-run on a patched scratch copy before the user saw the patch (DESIGN §5);
 * for a proposal made without a run (`loadOnly`, a frontmatter fix), the patched SKILL.md loaded.
 */
export function ReplayPanel({ replay, loadOnly = false }: { replay: ReplayResult; loadOnly?: boolean }) {
  const look = VERDICT_LOOKS[replay.verdict];
  const lines = replay.output ? replay.output.trimEnd().split('\n').length : 0;
  return (
    <section
      className={`review-card review-replay is-${replay.verdict}`}
      aria-label="Replay"
      data-testid="replay-result"
      data-verdict={replay.verdict}
    >
      <h3 className="run-section__title">
        {loadOnly ? 'Check' : 'Replay'}
        <span className="run-section__aside review-replay__aside">
          {loadOnly
            ? 'the changed SKILL.md, loaded; nothing runs'
            : 'the failing run, again, on a patched copy'}
        </span>
      </h3>
      <div className="review-replay__verdict">
        <Badge tone={look.tone} icon={ICONS[replay.verdict]} testId="replay-verdict">
          {loadOnly && replay.verdict === 'passes' ? 'Loads' : look.label}
        </Badge>
        <span data-testid="replay-summary">{replay.summary}</span>
      </div>
      {!loadOnly && (
        <p className="review-replay__facts">
          {replay.status}
          {replay.exit_code !== null && ` · exit ${replay.exit_code}`} · {formatDuration(replay.duration_ms)}
        </p>
      )}
      {(replay.output || replay.error) && (
        <details className="review-replay__output" data-testid="replay-output">
          <summary>
            Output <span className="muted">({lines === 1 ? '1 line' : `${lines} lines`})</span>
          </summary>
          {replay.output && <pre className="run-output">{replay.output}</pre>}
          {replay.error && <pre className="run-output run-output--stderr">{replay.error}</pre>}
        </details>
      )}
    </section>
  );
}
