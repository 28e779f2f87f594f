import type { MatchEvidence } from '../../../../../shared/contract';
import { EVIDENCE_META, evidenceText } from '../format';

/** What made a candidate match (issue 10 §6), strongest first, as small tinted chips. */
export function EvidenceList({ evidence }: { evidence: readonly MatchEvidence[] }) {
  if (evidence.length === 0) return null;
  return (
    <ul className="evidence" data-testid="candidate-evidence" aria-label="What matched">
      {evidence.map((e, i) => {
        const meta = EVIDENCE_META[e.kind];
        return (
          <li
            key={`${e.kind}-${e.query}-${i}`}
            className={`evidence__item tone-${meta.tone}`}
            data-testid="evidence-item"
            data-kind={e.kind}
            title={meta.help}
          >
            <span className="evidence__kind">{meta.label}</span>
            <span className="evidence__text">{evidenceText(e)}</span>
          </li>
        );
      })}
    </ul>
  );
}
