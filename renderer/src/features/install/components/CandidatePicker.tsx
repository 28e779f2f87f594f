import { useShallow } from 'zustand/react/shallow';
import { formatCount } from '../../../lib/format';
import { ErrorIcon, LayersOffIcon, TerminalIcon, WarningIcon } from '../../../ui/icons';
import { NO_CANDIDATES, useInstallStore } from '../store';

interface CandidatePickerProps {
  focused: string;
  onFocus: (name: string) => void;
}

/** A source with many skills: tick the ones to install, click one to review it. */
export function CandidatePicker({ focused, onFocus }: CandidatePickerProps) {
  const { candidates, choices, setChoice } = useInstallStore(
    useShallow((s) => ({
      candidates: s.preview?.candidates ?? NO_CANDIDATES,
      choices: s.choices,
      setChoice: s.setChoice,
    })),
  );
  const picked = candidates.filter((c) => choices[c.name]?.selected).length;
  const all = picked === candidates.length;

  return (
    <aside className="install-picker" aria-label="Skills in this source">
      <label className="install-picker__all">
        <input
          type="checkbox"
          checked={all}
          ref={(el) => {
            if (el) el.indeterminate = picked > 0 && !all;
          }}
          onChange={() => candidates.forEach((c) => setChoice(c.name, { selected: !all }))}
          data-testid="install-select-all"
        />
        <span>
          {formatCount(picked)} of {formatCount(candidates.length)} selected
        </span>
      </label>
      <ul className="install-picker__list">
        {candidates.map((c) => {
          const hasError = c.problems.some((p) => p.severity === 'error');
          const hasDanger = c.instructions.some((f) => f.severity === 'danger');
          return (
            <li
              key={c.name}
              className={`install-picker__item${c.name === focused ? ' is-focused' : ''}`}
              data-testid="install-pick"
              data-skill-name={c.name}
            >
              <input
                type="checkbox"
                checked={choices[c.name]?.selected ?? false}
                onChange={(event) => setChoice(c.name, { selected: event.target.checked })}
                aria-label={`Install ${c.name}`}
                data-testid="install-pick-checkbox"
              />
              <button type="button" className="install-picker__button" onClick={() => onFocus(c.name)}>
                <span className="install-picker__name">{c.name}</span>
                <span className="install-picker__marks">
                  {c.scripts.length > 0 && (
                    <span title="Has runnable scripts">
                      <TerminalIcon size={12} />
                    </span>
                  )}
                  {c.conflict && (
                    <span className="tone-amber" title="Already installed">
                      <LayersOffIcon size={12} />
                    </span>
                  )}
                  {hasDanger && (
                    <span className="tone-red" title="Its instructions ask for something dangerous">
                      <WarningIcon size={12} />
                    </span>
                  )}
                  {hasError && (
                    <span className="tone-red" title="Has errors">
                      <ErrorIcon size={12} />
                    </span>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
