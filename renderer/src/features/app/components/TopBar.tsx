import { useShallow } from 'zustand/react/shallow';
import { TruncatedPath } from '../../../ui/TruncatedPath';
import { ApprovalPill } from '../../approvals/components/ApprovalPill';
import { useAppStore } from '../store';

export function TopBar() {
  const { info, connection } = useAppStore(useShallow((s) => ({ info: s.info, connection: s.connection })));
  return (
    <header className="top-bar">
      <div className="top-bar__brand">
        <span className="top-bar__logo" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="14" height="14">
            <path d="M12 2 21 7v10l-9 5-9-5V7z" fill="currentColor" opacity="0.9" />
            <path d="m12 7 4.5 2.5v5L12 17l-4.5-2.5v-5z" fill="var(--bg-app)" />
          </svg>
        </span>
        <span className="top-bar__name">SkillDeck</span>
        {info && <span className="top-bar__version">v{info.version}</span>}
      </div>
      <div className="top-bar__meta">
        <ApprovalPill />
        {info?.workspace && <TruncatedPath path={info.workspace} className="top-bar__workspace" />}
        <span className={`status-dot status-dot--${connection}`} title={`Engine: ${connection}`} />
      </div>
    </header>
  );
}
