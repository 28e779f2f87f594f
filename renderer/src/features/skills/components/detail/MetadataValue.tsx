import type { SkillMetadata } from '../../../../../../shared/contract';

type Entrypoint = SkillMetadata['entrypoints'][number];

const isEntrypoint = (value: unknown): value is Entrypoint =>
  typeof value === 'object' && value !== null && 'name' in value && 'path' in value;

/** A normalized field's value, shaped for reading rather than as JSON where that is clearer. */
export function MetadataValue({ value }: { value: unknown }) {
  if (value === undefined || value === null || value === '') return <span className="muted">—</span>;
  if (typeof value === 'boolean') {
    return <span className={`bool bool--${value}`}>{value ? 'yes' : 'no'}</span>;
  }
  if (typeof value === 'string' || typeof value === 'number')
    return <span className="meta-text">{value}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    if (value.every((v) => typeof v === 'string')) {
      return (
        <span className="token-list">
          {value.map((v, i) => (
            <code key={`${v}-${i}`} className="token">
              {v}
            </code>
          ))}
        </span>
      );
    }
    if (value.every(isEntrypoint)) {
      return (
        <ul className="entrypoints">
          {value.map((e) => (
            <li key={e.name}>
              <code className="token">{e.name}</code> <span className="muted">→</span> <code>{e.path}</code>
              {e.description && <div className="muted">{e.description}</div>}
            </li>
          ))}
        </ul>
      );
    }
  }
  return <pre className="meta-json">{JSON.stringify(value, null, 2)}</pre>;
}
