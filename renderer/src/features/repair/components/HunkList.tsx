import type { ProposalHunk, RepairProposal } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { EyeIcon } from '../../../ui/icons';
import { hunkCounts, hunkHeader, hunkPreview, hunksOf } from '../selection';
import { useRepairStore } from '../store';
import { useSelection } from '../useSelection';

interface HunkListProps {
  p: RepairProposal;
  /** Editing is over: applied, rejected, superseded or stale. */
  locked: boolean;
  onJump(h: ProposalHunk): void;
}

/** Per-hunk accept / reject (DESIGN §5), grouped by file, each with its header, size and a way to see it. */
export function HunkList({ p, locked, onJump }: HunkListProps) {
  const sel = useSelection(p);
  const toggleHunk = useRepairStore((s) => s.toggleHunk);
  const toggleFile = useRepairStore((s) => s.toggleFile);
  const accepted = p.hunks.filter((h) => sel.accepted.includes(h.index)).length;

  return (
    <section className="hunk-list" aria-label="Hunks" data-testid="hunk-list">
      <h3 className="run-section__title">
        Hunks
        <span className="run-section__aside" data-testid="hunk-count">
          {accepted} of {p.hunks.length} accepted
        </span>
      </h3>
      {p.files.map((f) => {
        const hunks = hunksOf(p, f.path);
        const edited = f.path in sel.edited;
        const on = hunks.filter((h) => sel.accepted.includes(h.index)).length;
        return (
          <div key={f.path} className="hunk-list__file" data-testid="hunk-file" data-path={f.path}>
            <label className="hunk-list__file-head">
              <input
                type="checkbox"
                checked={on === hunks.length}
                ref={(el) => {
                  if (el) el.indeterminate = on > 0 && on < hunks.length;
                }}
                disabled={locked || edited}
                onChange={(e) => toggleFile(p, f.path, e.target.checked)}
                aria-label={`Accept every hunk of ${f.path}`}
              />
              <code className="hunk-list__path">{f.path}</code>
              {f.before === null && <Badge tone="green">new</Badge>}
              {edited && (
                <Badge tone="amber" testId="file-edited">
                  edited
                </Badge>
              )}
            </label>
            {edited && <p className="hunk-list__note">Your edit replaces this file’s hunks.</p>}
            <ul>
              {hunks.map((h) => {
                const { added, removed } = hunkCounts(h);
                const isOn = sel.accepted.includes(h.index);
                return (
                  <li
                    key={h.index}
                    className={`hunk${isOn && !edited ? '' : ' is-off'}`}
                    data-testid="hunk"
                    data-index={h.index}
                    data-accepted={String(isOn)}
                  >
                    <label className="hunk__pick">
                      <input
                        type="checkbox"
                        checked={isOn}
                        disabled={locked || edited}
                        onChange={(e) => toggleHunk(p, h.index, e.target.checked)}
                        data-testid="hunk-accept"
                        aria-label={`Accept hunk ${h.index + 1}, ${hunkHeader(h)} in ${h.file}`}
                      />
                      <code className="hunk__header">{hunkHeader(h)}</code>
                    </label>
                    <span
                      className="hunk__counts"
                      role="img"
                      aria-label={`${added} added, ${removed} removed`}
                    >
                      <span className="hunk__plus">+{added}</span>
                      <span className="hunk__minus">−{removed}</span>
                    </span>
                    <button
                      type="button"
                      className="icon-button hunk__jump"
                      onClick={() => onJump(h)}
                      aria-label={`Show hunk ${h.index + 1} in the diff`}
                      title="Show in the diff"
                      data-testid="hunk-jump"
                    >
                      <EyeIcon size={14} />
                    </button>
                    <p className="hunk__preview">{hunkPreview(h) || '(blank line)'}</p>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
