import { useMemo, useState } from 'react';
import type { SkillMetadata } from '../../../../../../shared/contract';
import { MetadataValue } from './MetadataValue';
import { fieldSource, isEmpty, metadataSections } from './metadataSections';

/** The normalized SkillMetadata as key/value sections, each field tagged with the file it came from. */
export function MetadataView({ metadata }: { metadata: SkillMetadata }) {
  const [showEmpty, setShowEmpty] = useState(false);
  const sections = useMemo(() => metadataSections(metadata), [metadata]);
  const sourceEntries = Object.entries(metadata.fieldSources);

  return (
    <div className="metadata-view" data-testid="metadata-view">
      <label className="metadata-view__toggle">
        <input type="checkbox" checked={showEmpty} onChange={(e) => setShowEmpty(e.target.checked)} />
        Show unset fields
      </label>
      {sections.map((section) => {
        const rows = showEmpty ? section.rows : section.rows.filter((r) => !isEmpty(r.value));
        if (rows.length === 0) return null;
        return (
          <section key={section.title} className="meta-section">
            <h3 className="meta-section__title">{section.title}</h3>
            <dl className="meta-grid">
              {rows.map((r) => {
                const source = fieldSource(metadata.fieldSources, r.key);
                return (
                  <div key={r.key} className="meta-row" data-field={r.key}>
                    <dt>
                      {r.label}
                      {source && source !== 'SKILL.md' && (
                        <span className="meta-row__source" title={`From ${source}`}>
                          {source}
                        </span>
                      )}
                    </dt>
                    <dd>
                      <MetadataValue value={r.value} />
                    </dd>
                  </div>
                );
              })}
            </dl>
          </section>
        );
      })}
      {sourceEntries.length > 0 && (
        <section className="meta-section">
          <h3 className="meta-section__title">Field sources</h3>
          <dl className="meta-grid meta-grid--compact" data-testid="field-sources">
            {sourceEntries.map(([field, file]) => (
              <div key={field} className="meta-row">
                <dt>
                  <code>{field}</code>
                </dt>
                <dd>
                  <code className="muted">{file}</code>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}
