import type { SkillDetail } from '../../../../../../shared/contract';
import { Placeholder } from '../../../../ui/Placeholder';
import { useSkillsStore } from '../../store';
import { FileTree } from './FileTree';
import { FileViewer } from './FileViewer';
import { defaultFile } from './fileTree';

export function FilesTab({ detail }: { detail: SkillDetail }) {
  const opened = useSkillsStore((s) => s.openFiles[detail.id]);
  const openFile = useSkillsStore((s) => s.openFile);
  const path = opened ?? defaultFile(detail.files);

  return (
    <div className="split split--files">
      <div className="split__side split__side--tree">
        <FileTree
          files={detail.files}
          truncated={detail.filesTruncated}
          selected={path}
          onOpen={(p) => void openFile(detail.id, p)}
        />
      </div>
      <div className="split__side">
        {path ? (
          <FileViewer skillId={detail.id} path={path} />
        ) : (
          <div data-testid="file-viewer">
            <Placeholder title="No files" />
          </div>
        )}
      </div>
    </div>
  );
}
