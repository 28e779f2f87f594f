import { useEffect } from 'react';
import { formatBytes } from '../../../../lib/format';
import { CodeViewer } from '../../../../ui/CodeViewer';
import { Placeholder } from '../../../../ui/Placeholder';
import { Spinner } from '../../../../ui/Spinner';
import { ErrorIcon, FileIcon } from '../../../../ui/icons';
import { languageForPath } from '../../../../ui/monaco/languages';
import { fileKey, useSkillsStore } from '../../store';
import { modelPath } from './modelPath';

export function FileViewer({ skillId, path }: { skillId: string; path: string }) {
  const file = useSkillsStore((s) => s.files[fileKey(skillId, path)]);
  const ensureFile = useSkillsStore((s) => s.ensureFile);
  const language = languageForPath(path);

  // Load what is shown, again if skills.changed dropped it; the store dedupes requests.
  const missing = file === undefined;
  useEffect(() => {
    if (missing) void ensureFile(skillId, path);
  }, [missing, ensureFile, skillId, path]);

  return (
    <div
      className="file-viewer"
      data-testid="file-viewer"
      data-path={path}
      data-status={file?.status ?? 'loading'}
    >
      <div className="pane-header">
        <span className="pane-header__path">{path}</span>
        {file?.status === 'ready' && (
          <span className="pane-header__meta">
            {file.data.truncated && <span className="tone-amber">truncated · </span>}
            {!file.data.binary && <span>{language} · </span>}
            {formatBytes(file.data.size)}
          </span>
        )}
      </div>
      <div className="file-viewer__body">
        {(!file || file.status === 'loading') && (
          <div className="detail__loading">
            <Spinner label="Loading file" />
          </div>
        )}
        {file?.status === 'error' && (
          <Placeholder icon={<ErrorIcon size={22} />} tone="error" title="Could not read this file">
            <p>{file.error}</p>
          </Placeholder>
        )}
        {file?.status === 'ready' &&
          (file.data.binary ? (
            <Placeholder icon={<FileIcon size={22} />} title="Binary file" testId="binary-file">
              <p>Binary file, {file.data.size.toLocaleString('en-US')} bytes — not shown.</p>
            </Placeholder>
          ) : (
            <CodeViewer
              value={file.data.content}
              language={language}
              path={modelPath(skillId, path)}
              wordWrap={language === 'markdown' || language === 'plaintext'}
            />
          ))}
      </div>
    </div>
  );
}
