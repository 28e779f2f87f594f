import type { InstallCandidate } from '../../../../../shared/contract';
import { formatBytes, plural } from '../../../lib/format';
import { TerminalIcon } from '../../../ui/icons';

/** Every file that will be written, with sizes; scripts are marked with their language. */
export function FileTable({ candidate }: { candidate: InstallCandidate }) {
  const languages = new Map(candidate.scripts.map((s) => [s.path, s.language]));
  return (
    <section className="install-section">
      <h3 className="install-section__title">
        Files{' '}
        <span className="install-section__count">
          {plural(candidate.files.length, 'file')} · {formatBytes(candidate.totalBytes)}
        </span>
      </h3>
      <div className="file-table" data-testid="install-files">
        {candidate.files.map((file) => {
          const language = languages.get(file.path) ?? file.scriptLanguage;
          return (
            <div
              key={file.path}
              className={`file-table__row${language ? ' is-script' : ''}`}
              data-testid="install-file"
              data-path={file.path}
            >
              <span className="file-table__path">{file.path}</span>
              {language && (
                <span className="file-table__lang" title={`Runnable ${language} script`}>
                  <TerminalIcon size={12} />
                  {language}
                </span>
              )}
              {file.executable && !language && <span className="file-table__lang">executable</span>}
              <span className="file-table__size">{formatBytes(file.size)}</span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
