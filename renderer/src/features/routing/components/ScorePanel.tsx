import { useLayoutEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { Placeholder } from '../../../ui/Placeholder';
import { RouteIcon } from '../../../ui/icons';
import { formatMs, STATUS_META } from '../format';
import { measurePanel } from '../perf';
import { useRoutingStore } from '../store';
import { CandidateList } from './CandidateList';
import { FactorLegend } from './FactorLegend';
import { PlanCard } from './PlanCard';
import { RecordedRoutePanel } from './RecordedRoutePanel';

/**
 * The live routing preview of the composer's draft (issue item 5), or a sent message's recorded route.
 * `live`: always the preview (Settings: a recorded route would not move with the weights).
 */
export function ScorePanel({ live = false }: { live?: boolean }) {
  const { preview, error, hasDraft, stale, recorded, showRecorded } = useRoutingStore(
    useShallow((s) => ({
      recorded: s.recorded,
      showRecorded: s.showRecorded,
      preview: s.preview,
      error: s.error,
      hasDraft: s.draft.trim() !== '',
      stale: s.preview !== null && s.preview.result.query !== s.draft.trim(),
    })),
  );

  // Keystroke → panel committed → painted (issue: ≤ 50 ms); see perf.ts.
  useLayoutEffect(() => {
    if (!preview) return;
    measurePanel(preview.result.query, preview.inputAt, preview.roundTripMs, preview.result.latency_ms);
  }, [preview]);

  if (recorded && !live) return <RecordedRoutePanel route={recorded} onClose={() => showRecorded(null)} />;

  if (!hasDraft || !preview) {
    return (
      <section className="score-panel score-panel--empty" data-testid="score-panel" data-state="empty">
        <Placeholder icon={<RouteIcon size={22} />} title="Routing preview">
          <p>
            Start typing and every skill is scored as you type: which one would run, how sure the router is,
            and why the others would not.
          </p>
          {error && <p className="tone-red">{error}</p>}
        </Placeholder>
      </section>
    );
  }

  const { result } = preview;
  const shown = result.candidates.filter((c) => !STATUS_META[c.status].dim);
  const misses = result.candidates.filter((c) => STATUS_META[c.status].dim);

  return (
    <section
      className={`score-panel${stale ? ' is-stale' : ''}`}
      data-testid="score-panel"
      data-state="ready"
      data-query={result.query}
      aria-label="Routing preview"
    >
      <header className="score-panel__header">
        <h2>Routing preview</h2>
        <span className="score-panel__meta" data-testid="score-panel-meta">
          {plural(result.candidates.length, 'candidate')} · routed in {formatMs(result.latency_ms)}
        </span>
      </header>
      <FactorLegend threshold={result.threshold} />
      {error && <p className="score-panel__error tone-red">{error}</p>}
      <PlanCard plan={result.plan} />
      {result.candidates.length === 0 ? (
        <p className="score-panel__none" data-testid="no-candidates">
          No skill was recalled for this message: it goes to plain chat.
        </p>
      ) : (
        <CandidateList
          selected={shown}
          misses={misses}
          threshold={result.threshold}
          primaryId={result.plan.primary_id}
        />
      )}
    </section>
  );
}
