import { useEffect, type ReactNode } from 'react';
import type { Diagnosis, SkillSummary } from '../../../../../../shared/contract';
import { InlineCode } from '../../../../ui/InlineCode';
import { Spinner } from '../../../../ui/Spinner';
import { CheckIcon, ErrorIcon, WarningIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';
import { RoutingSwitches } from './RoutingSwitches';
import { ReasonItem } from './ReasonItem';
import { InstalledNotes } from '../InstalledNotes';
import './availability.css';

const VERDICTS = {
  ok: {
    icon: <CheckIcon size={18} />,
    title: 'Nothing keeps it out of routing',
    text: () => 'The router may pick it whenever a message matches it well enough; the score decides.',
  },
  manual: {
    icon: <WarningIcon size={18} />,
    title: 'Only used when asked by name',
    text: (name: string) => `The router never picks it on its own; $${name} still runs it.`,
  },
  blocked: {
    icon: <ErrorIcon size={18} />,
    title: 'Never used',
    text: (name: string) => `Neither the router nor $${name} can use it until the reasons below are fixed.`,
  },
} satisfies Record<string, { icon: ReactNode; title: string; text: (name: string) => string }>;

function Verdict({ diagnosis }: { diagnosis: Diagnosis }) {
  const tone = !diagnosis.invocable ? 'blocked' : diagnosis.autoSelectable ? 'ok' : 'manual';
  const verdict = VERDICTS[tone];
  return (
    <div className={`why-verdict why-verdict--${tone}`} data-testid="diagnosis-verdict" data-verdict={tone}>
      {verdict.icon}
      <div>
        <div className="why-verdict__title">{verdict.title}</div>
        <div className="why-verdict__text">{verdict.text(diagnosis.name)}</div>
      </div>
    </div>
  );
}

/** "Why isn't it used?" (issue 3, item 7): every reason that keeps the skill out of routing, in one place. */
export function AvailabilityTab({ summary }: { summary: SkillSummary }) {
  const diagnosis = useSkillsStore((s) => s.diagnoses[summary.id]);
  const ensureDiagnosis = useSkillsStore((s) => s.ensureDiagnosis);

  // Loads on first view, and again after skills.changed or a switch dropped the cached one.
  useEffect(() => {
    if (!diagnosis) void ensureDiagnosis(summary.id);
  }, [diagnosis, ensureDiagnosis, summary.id]);

  return (
    <div className="availability" data-testid="availability">
      <RoutingSwitches summary={summary} />
      <section className="availability__section">
        <h3>Why isn’t it used?</h3>
        {(!diagnosis || diagnosis.status === 'loading') && <Spinner label="Checking" />}
        {diagnosis?.status === 'error' && (
          <p className="tone-red">
            <InlineCode text={diagnosis.error} />
          </p>
        )}
        {diagnosis?.status === 'ready' && (
          <div data-testid="diagnosis" data-auto-selectable={diagnosis.data.autoSelectable}>
            <Verdict diagnosis={diagnosis.data} />
            <InstalledNotes
              id={summary.id}
              name={summary.name}
              shown={diagnosis.data.reasons.flatMap((r) => (r.install ?? []).map((h) => h.command))}
            />
            {diagnosis.data.reasons.length > 0 && (
              <ul className="why-reason-list">
                {diagnosis.data.reasons.map((reason, i) => (
                  <ReasonItem
                    key={`${reason.code}-${i}`}
                    reason={reason}
                    skillId={summary.id}
                    skillName={summary.name}
                  />
                ))}
              </ul>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
