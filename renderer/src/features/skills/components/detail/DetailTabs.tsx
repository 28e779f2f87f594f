import type { SkillDetail, SkillSummary } from '../../../../../../shared/contract';
import { formatCount } from '../../../../lib/format';
import { useSkillsStore, type DetailTab } from '../../store';

const TABS: { id: DetailTab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'run', label: 'Run' },
  { id: 'metadata', label: 'Metadata' },
  { id: 'files', label: 'Files' },
  { id: 'problems', label: 'Problems' },
  { id: 'evals', label: 'Evals' },
  { id: 'availability', label: 'Availability' },
  { id: 'history', label: 'Repairs' },
];

interface DetailTabsProps {
  tab: DetailTab;
  summary: SkillSummary;
  detail?: SkillDetail;
}

export function DetailTabs({ tab, summary, detail }: DetailTabsProps) {
  const setTab = useSkillsStore((s) => s.setTab);
  const hasErrors = summary.problems.some((p) => p.severity === 'error');
  const counts: Partial<Record<DetailTab, number>> = {
    files: detail?.files.filter((f) => f.kind === 'file').length,
    problems:
      summary.problems.length + (detail && !detail.validation.valid ? detail.validation.errors.length : 0),
  };

  return (
    <div className="tabs" role="tablist" aria-label="Skill details">
      {TABS.map(({ id, label }) => {
        const count = counts[id];
        return (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={`tabs__tab${tab === id ? ' is-active' : ''}`}
            onClick={() => setTab(id)}
            data-testid={`detail-tab-${id}`}
          >
            {label}
            {count !== undefined && count > 0 && (
              <span
                className={`tabs__count${id === 'problems' ? (hasErrors ? ' tone-red' : ' tone-amber') : ''}`}
              >
                {formatCount(count)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
