import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Spinner } from '../../../ui/Spinner';
import { SaveAsEval } from '../../evals/components/SaveAsEval';
import { barScale, weightSum } from '../factors';
import { formatScore } from '../format';
import { useRoutingStore } from '../store';
import { FactorTable } from './FactorTable';
import { ScoreBar } from './ScoreBar';
import { SkillPicker } from './SkillPicker';
import { SourceTag } from './SourceTag';
import { StatusTag } from './StatusTag';
import { ThresholdAxis } from './ThresholdAxis';

/** "Why not X?" for any skill and the current draft (DESIGN §3). */
export function WhyNotPanel() {
  const { whyNotId, whyNot, setWhyNot, draft, candidates } = useRoutingStore(
    useShallow((s) => ({
      whyNotId: s.whyNotId,
      whyNot: s.whyNot,
      setWhyNot: s.setWhyNot,
      draft: s.draft,
      candidates: s.preview?.result.candidates,
    })),
  );
  const hasDraft = draft.trim() !== '';
  const marked = useMemo(() => new Set((candidates ?? []).map((c) => c.id)), [candidates]);

  return (
    <section className="why-not" data-testid="why-not" aria-label="Why not…?">
      <header className="why-not__header">
        <h3>Why not…?</h3>
        <span className="muted">Pick any skill to see its breakdown for this message.</span>
      </header>
      <SkillPicker value={whyNotId} onChange={setWhyNot} placeholder="Choose a skill…" marked={marked} />
      {whyNotId && !hasDraft && <p className="muted">Type a message first: “why not” is asked about it.</p>}
      {whyNot.status === 'loading' && <Spinner label="Explaining" />}
      {whyNot.status === 'error' && <p className="tone-red">{whyNot.error}</p>}
      {whyNot.status === 'ready' && (
        <div
          className="why-not__result"
          data-testid="why-not-result"
          data-skill-name={whyNot.data.candidate.name}
          data-status={whyNot.data.candidate.status}
        >
          <div className="why-not__title">
            <strong>{whyNot.data.candidate.name}</strong>
            {whyNot.data.candidate.source !== 'none' && <SourceTag source={whyNot.data.candidate.source} />}
            <StatusTag status={whyNot.data.candidate.status} />
            <span className="candidate__score">{formatScore(whyNot.data.candidate.score)}</span>
          </div>
          <p className="why-not__explanation" data-testid="why-not-explanation">
            {whyNot.data.explanation}
          </p>
          <ThresholdAxis
            threshold={whyNot.data.threshold}
            scale={barScale(weightSum(whyNot.data.candidate.factors))}
          />
          <ScoreBar
            factors={whyNot.data.candidate.factors}
            threshold={whyNot.data.threshold}
            label={`${whyNot.data.candidate.name} score ${formatScore(whyNot.data.candidate.score)}`}
          />
          <p className="muted why-not__compare">
            {whyNot.data.primary ? (
              <>
                The router chose <strong>{whyNot.data.primary}</strong> for this message.
              </>
            ) : (
              'The router chose no skill: this message goes to plain chat.'
            )}
            {!whyNot.data.explanation.includes(whyNot.data.candidate.reason) &&
              ` ${whyNot.data.candidate.reason}`}
          </p>
          <FactorTable factors={whyNot.data.candidate.factors} />
          {whyNotId && hasDraft && (
            <SaveAsEval id={whyNotId} name={whyNot.data.candidate.name} query={draft} />
          )}
        </div>
      )}
    </section>
  );
}
