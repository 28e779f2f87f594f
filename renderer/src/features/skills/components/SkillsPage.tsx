import { useRef } from 'react';
import { flushSync } from 'react-dom';
import { useShallow } from 'zustand/react/shallow';
import { InlineCode } from '../../../ui/InlineCode';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon } from '../../../ui/icons';
import { DropOverlay } from '../../install/components/DropOverlay';
import { InstallButton } from '../../install/components/InstallButton';
import { InstallDialog } from '../../install/components/InstallDialog';
import { selectLoadState } from '../selectors';
import { useSkillsStore } from '../store';
import { useListNavigation } from '../useListNavigation';
import { useSkillView } from '../useSkillView';
import { EmptyState } from './EmptyState';
import { SkillDetailPane } from './detail/SkillDetailPane';
import { NoMatches } from './list/NoMatches';
import { ReloadButton } from './list/ReloadButton';
import { SkillCount } from './list/SkillCount';
import { SkillFilters } from './list/SkillFilters';
import { SkillList } from './list/SkillList';
import { SkillSearch } from './list/SkillSearch';
import { UndoToast } from './UndoToast';
import '../skills.css';

/** Overlays that live above every state of the page: install, drop target, undo. */
function Layers({ onShown }: { onShown?: () => void }) {
  return (
    <>
      <InstallDialog onShown={onShown} />
      <DropOverlay />
      <UndoToast />
    </>
  );
}

export function SkillsPage() {
  const { status, error, skillCount } = useSkillsStore(useShallow(selectLoadState));
  const view = useSkillView();
  const detailRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLElement>(null);
  const { move, open } = useListNavigation(view.visible, detailRef);
  const pane = useSkillsStore((s) => s.pane);
  const showList = useSkillsStore((s) => s.showList);
  const focusList = () => {
    const list = listRef.current;
    (list?.querySelector<HTMLElement>('[role="listbox"]') ?? list?.querySelector('input'))?.focus();
  };
  const back = () => {
    flushSync(showList);
    focusList();
  };

  if (status === 'idle' || status === 'loading') {
    return (
      <div className="page-center">
        <Spinner label="Loading skills" />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="page-center">
        <Placeholder
          icon={<ErrorIcon size={24} />}
          tone="error"
          title="Could not list skills"
          testId="skills-error"
        >
          <p>
            <InlineCode text={error ?? ''} />
          </p>
        </Placeholder>
      </div>
    );
  }
  if (skillCount === 0) {
    return (
      <>
        <EmptyState />
        <Layers />
      </>
    );
  }

  return (
    <div className="skills-page" data-pane={pane}>
      <section className="skills-page__list" aria-label="Skill list" ref={listRef}>
        <div className="skills-page__toolbar">
          <SkillSearch onMove={move} onOpen={open} />
          <ReloadButton />
          <InstallButton />
        </div>
        <SkillFilters facets={view.facets} />
        <SkillCount view={view} />
        {view.visible.length > 0 ? (
          <SkillList items={view.visible} onMove={move} onOpen={open} />
        ) : (
          <NoMatches />
        )}
      </section>
      <SkillDetailPane ref={detailRef} onBack={back} />
      <Layers onShown={focusList} />
    </div>
  );
}
