import { SkillsIcon } from '../../../ui/icons';

/** Only features that exist get an entry; more arrive with their issues. */
export function NavRail() {
  return (
    <nav className="nav-rail" aria-label="Main">
      <a className="nav-rail__item is-active" aria-current="page" href="#skills" data-testid="nav-skills">
        <SkillsIcon size={20} />
        <span className="nav-rail__label">Skills</span>
      </a>
    </nav>
  );
}
