import { SkillsIcon } from '../../../ui/icons';
import { InstallButton } from '../../install/components/InstallButton';
import { useSkillsStore } from '../store';
import { SearchedFolderItem } from './SearchedFolderItem';
import { ReloadButton } from './list/ReloadButton';

const EXAMPLE = `my-skill/
└── SKILL.md

---
name: my-skill
description: What it does, and when to use it.
---
# My skill
Steps the agent should follow…`;

/** No skills at all: say where we looked and how to add one. */
export function EmptyState() {
  const folders = useSkillsStore((s) => s.folders);
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-state__icon">
        <SkillsIcon size={28} />
      </div>
      <h2>No skills yet</h2>
      <p className="empty-state__lead">
        A skill is a folder with a <code>SKILL.md</code>. Drop one into any of the folders below and SkillDeck
        picks it up.
      </p>
      <InstallButton />
      <section className="empty-state__section">
        <div className="empty-state__heading">
          <h3>Folders searched</h3>
          <ReloadButton />
        </div>
        {folders.length === 0 ? (
          <p className="muted">No skill folders are configured.</p>
        ) : (
          <ul className="folder-list">
            {folders.map((folder) => (
              <SearchedFolderItem key={`${folder.source}:${folder.path}`} folder={folder} />
            ))}
          </ul>
        )}
      </section>
      <section className="empty-state__section">
        <h3>A minimal skill</h3>
        <pre className="empty-state__example">{EXAMPLE}</pre>
      </section>
    </div>
  );
}
