import type { ComponentType } from 'react';
import { ActivityIcon, ChatIcon, RunsIcon, SkillsIcon, SlidersIcon } from '../../../ui/icons';
import { useNavEntry, type View } from '../useView';

const ITEMS: { view: View; label: string; Icon: ComponentType<{ size?: number }> }[] = [
  { view: 'chat', label: 'Chat', Icon: ChatIcon },
  { view: 'skills', label: 'Skills', Icon: SkillsIcon },
  { view: 'runs', label: 'Runs', Icon: RunsIcon },
  { view: 'activity', label: 'Activity', Icon: ActivityIcon },
  { view: 'settings', label: 'Settings', Icon: SlidersIcon },
];

/** Only features that exist get an entry; more arrive with their issues. */
export function NavRail() {
  const current = useNavEntry();
  return (
    <nav className="nav-rail" aria-label="Main">
      {ITEMS.map(({ view, label, Icon }) => (
        <a
          key={view}
          className={`nav-rail__item${view === current ? ' is-active' : ''}`}
          aria-current={view === current ? 'page' : undefined}
          href={`#${view}`}
          data-testid={`nav-${view}`}
        >
          <Icon size={20} />
          <span className="nav-rail__label">{label}</span>
        </a>
      ))}
    </nav>
  );
}
