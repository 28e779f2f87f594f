import type { KeyboardEvent } from 'react';
import type { RepairProposal } from '../../../../../shared/contract';
import { hunksOf } from '../selection';
import { useSelection } from '../useSelection';

interface FileTabsProps {
  p: RepairProposal;
  active: string;
  onSelect(path: string): void;
}

/** One tab per patched file; ← → move between them, as in any tab list. */
export function FileTabs({ p, active, onSelect }: FileTabsProps) {
  const sel = useSelection(p);
  const paths = p.files.map((f) => f.path);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = paths[(paths.indexOf(active) + step + paths.length) % paths.length];
    onSelect(next);
    e.currentTarget.querySelector<HTMLElement>(`[data-path="${CSS.escape(next)}"]`)?.focus();
  };
  return (
    <div className="tabs review-tabs" role="tablist" aria-label="Patched files" onKeyDown={onKeyDown}>
      {p.files.map((f) => {
        const n = hunksOf(p, f.path).length;
        const on = f.path === active;
        return (
          <button
            key={f.path}
            type="button"
            role="tab"
            aria-selected={on}
            tabIndex={on ? 0 : -1}
            className={`tabs__tab${on ? ' is-active' : ''}`}
            onClick={() => onSelect(f.path)}
            data-testid="review-file-tab"
            data-path={f.path}
          >
            <code>{f.path}</code>
            <span className="tabs__count" title={`${n} hunk${n === 1 ? '' : 's'}`}>
              {n}
            </span>
            {f.path in sel.edited && (
              <span className="review-tabs__edited" title="Edited by you" role="img" aria-label="edited">
                ●
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
