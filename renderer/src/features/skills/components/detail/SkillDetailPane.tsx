import { useEffect, type Ref } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Kbd } from '../../../../ui/Kbd';
import { Placeholder } from '../../../../ui/Placeholder';
import { Spinner } from '../../../../ui/Spinner';
import { ChevronIcon, ErrorIcon, SkillsIcon } from '../../../../ui/icons';
import { selectDetailState } from '../../selectors';
import { useSkillsStore } from '../../store';
import { DetailHeader } from './DetailHeader';
import { DetailTabs } from './DetailTabs';
import { TabContent } from './TabContent';
import './detail.css';
import './metadata.css';
import './files.css';

// Long enough to skip skills flown past with ↑/↓, short enough not to feel like waiting.
const DETAIL_DELAY_MS = 120;

function BackButton({ onBack }: { onBack(): void }) {
  return (
    <button type="button" className="link-button detail__back" onClick={onBack} data-testid="detail-back">
      <ChevronIcon size={11} className="detail__back-icon" /> All skills
    </button>
  );
}

interface SkillDetailPaneProps {
  ref?: Ref<HTMLElement>;
  /** Back to the list, in a window too narrow for both (the button shows only there). */
  onBack(): void;
}

export function SkillDetailPane({ ref, onBack }: SkillDetailPaneProps) {
  const { selectedId, tab, detail, summary } = useSkillsStore(useShallow(selectDetailState));
  const ensureDetail = useSkillsStore((s) => s.ensureDetail);
  const missing = summary !== undefined && detail === undefined;

  // Load what is selected but not cached: after keyboard moves, and after skills.changed dropped it.
  useEffect(() => {
    if (!missing || !selectedId) return;
    const timer = setTimeout(() => void ensureDetail(selectedId), DETAIL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [missing, selectedId, ensureDetail]);

  if (!selectedId || !summary) {
    return (
      <section className="detail detail--empty" ref={ref} tabIndex={-1}>
        <BackButton onBack={onBack} />
        <Placeholder
          icon={<SkillsIcon size={24} />}
          title={selectedId ? 'This skill is gone' : 'Select a skill'}
        >
          <p>
            <Kbd>↑</Kbd> <Kbd>↓</Kbd> move · <Kbd>Enter</Kbd> open · <Kbd>/</Kbd> search
          </p>
        </Placeholder>
      </section>
    );
  }

  const ready = detail?.status === 'ready' ? detail.data : undefined;
  const dangers = ready?.instructions.filter((f) => f.severity === 'danger').length ?? 0;
  return (
    <section
      className="detail"
      ref={ref}
      tabIndex={-1}
      aria-label={`Skill ${summary.name}`}
      data-testid="skill-detail"
      data-skill-name={summary.name}
      data-skill-id={summary.id}
      data-loaded={detail?.status === 'ready'}
    >
      <BackButton onBack={onBack} />
      <DetailHeader summary={summary} dangers={dangers} />
      <DetailTabs tab={tab} summary={summary} detail={ready} />
      <div className="detail__content" role="tabpanel" data-tab={tab}>
        {(!detail || detail.status === 'loading') && (
          <div className="detail__loading">
            <Spinner label="Loading skill" />
          </div>
        )}
        {detail?.status === 'error' && (
          <Placeholder icon={<ErrorIcon size={22} />} tone="error" title="Could not load this skill">
            <p>{detail.error}</p>
          </Placeholder>
        )}
        {ready && <TabContent tab={tab} detail={ready} summary={summary} />}
      </div>
    </section>
  );
}
