import type { RunFile } from '../../../../../shared/contract';
import { formatBytes } from '../../../lib/format';
import { FileIcon } from '../../../ui/icons';
import { CopyButton } from './CopyButton';

/** Files the run left in its working folder or wrote in its write folders, each with its path on disk. */
export function RunFiles({ files }: { files: RunFile[] }) {
  return (
    <section className="run-section" aria-label="Files produced">
      <h3 className="run-section__title">Files produced</h3>
      {files.length === 0 ? (
        <p className="run-section__empty" data-testid="run-no-files">
          No files written.
        </p>
      ) : (
        <ul className="run-files" data-testid="run-files">
          {files.map((file) => (
            <li key={file.path} className="run-file" data-testid="run-file" data-path={file.path}>
              <FileIcon size={14} />
              <div className="run-file__names">
                <code className="run-file__path">{file.path}</code>
                {file.abs !== file.path && <span className="run-file__abs">{file.abs}</span>}
              </div>
              <span className="run-file__size">{formatBytes(file.size)}</span>
              <CopyButton text={file.abs} label="Copy the path" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
