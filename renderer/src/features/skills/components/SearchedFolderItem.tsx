import type { SearchedFolder } from '../../../../../shared/contract';
import { plural } from '../../../lib/format';
import { TruncatedPath } from '../../../ui/TruncatedPath';
import { FolderIcon, WarningIcon } from '../../../ui/icons';
import { SourceBadge } from './SourceBadge';

function state(folder: SearchedFolder): string {
  if (folder.duplicateOf) return `same folder as ${folder.duplicateOf}`;
  return folder.exists ? plural(folder.skillCount, 'skill') : 'does not exist yet';
}

export function SearchedFolderItem({ folder }: { folder: SearchedFolder }) {
  return (
    <li
      className={`folder-item${folder.exists ? '' : ' is-missing'}`}
      data-testid="searched-folder"
      data-exists={folder.exists}
      data-path={folder.path}
    >
      <div className="folder-item__line">
        <FolderIcon size={15} />
        <TruncatedPath path={folder.path} className="folder-item__path" />
        <span className="folder-item__state">{state(folder)}</span>
        <SourceBadge source={folder.source} />
      </div>
      {folder.problems?.map((problem, i) => (
        <div key={i} className="folder-item__problem">
          <WarningIcon size={12} /> {problem.message}
        </div>
      ))}
    </li>
  );
}
