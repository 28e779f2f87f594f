import { useState } from 'react';
import type { SkillDetail } from '../../../../../../shared/contract';
import { CodeViewer } from '../../../../ui/CodeViewer';
import { languageForPath } from '../../../../ui/monaco/languages';
import { modelPath } from './modelPath';

/** The frontmatter as written, and each sidecar (skill.yaml, agents/openai.yaml) beside it. */
export function RawFrontmatter({ detail }: { detail: SkillDetail }) {
  const [chosen, setChosen] = useState('SKILL.md');
  const sources = [{ file: 'SKILL.md', raw: detail.rawFrontmatter }, ...detail.sidecars];
  const current = sources.find((s) => s.file === chosen) ?? sources[0];
  const language = current.file === 'SKILL.md' ? 'yaml' : languageForPath(current.file);

  return (
    <div className="raw-frontmatter" data-testid="raw-frontmatter" data-file={current.file}>
      <div className="pane-header">
        {sources.length === 1 ? (
          <span className="pane-header__title">SKILL.md frontmatter</span>
        ) : (
          <div className="segmented" role="tablist" aria-label="Raw source">
            {sources.map((s) => (
              <button
                key={s.file}
                type="button"
                role="tab"
                aria-selected={s.file === current.file}
                className={`segmented__item${s.file === current.file ? ' is-active' : ''}`}
                onClick={() => setChosen(s.file)}
                data-testid={`raw-source-${s.file}`}
              >
                {s.file === 'SKILL.md' ? 'SKILL.md frontmatter' : s.file}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className="raw-frontmatter__editor">
        {current.raw.trim() ? (
          <CodeViewer
            value={current.raw}
            language={language}
            path={modelPath(detail.id, `${current.file}#raw.yaml`)}
            wordWrap
          />
        ) : (
          <div className="raw-frontmatter__empty muted">
            No frontmatter: SKILL.md does not start with a --- block.
          </div>
        )}
      </div>
    </div>
  );
}
