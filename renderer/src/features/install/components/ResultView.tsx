import { flushSync } from 'react-dom';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { TruncatedPath } from '../../../ui/TruncatedPath';
import { ChevronIcon, CheckIcon, InfoIcon } from '../../../ui/icons';
import { useInstallStore } from '../store';

/** What got installed where, each a link into the list; what was skipped and why. */
export function ResultView({ onShown }: { onShown?: () => void }) {
  const { result, reveal } = useInstallStore(useShallow((s) => ({ result: s.result, reveal: s.reveal })));
  if (!result) return null;
  const { installed, skipped } = result;

  return (
    <div className="install-result" data-testid="install-result">
      <div className={`install-result__banner${installed.length ? '' : ' is-empty'}`}>
        {installed.length ? <CheckIcon size={20} /> : <InfoIcon size={20} />}
        <span>
          {installed.length
            ? `${plural(installed.length, 'skill')} installed. The router can use ${installed.length === 1 ? 'it' : 'them'} now.`
            : 'Nothing was installed.'}
        </span>
      </div>
      {installed.length > 0 && (
        <ul className="install-result__list">
          {installed.map((skill) => (
            <li key={skill.id}>
              <button
                type="button"
                className="install-result__item"
                onClick={() => {
                  // Closed and shown first: the closing dialog hands focus back to its opener.
                  flushSync(() => reveal(skill.id));
                  onShown?.();
                }}
                data-testid="install-result-link"
                data-skill-name={skill.name}
              >
                <span className="install-result__texts">
                  <span className="install-result__name">{skill.name}</span>
                  <TruncatedPath path={skill.path} className="install-result__path" />
                  {skill.replacedBackup && (
                    <span className="install-result__note">
                      The previous version is in the trash and can be restored.
                    </span>
                  )}
                </span>
                <span className="install-result__open">
                  Show in list <ChevronIcon size={14} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <section className="install-section">
          <h3 className="install-section__title">Skipped</h3>
          <ul className="unmet-list" data-testid="install-skipped">
            {skipped.map((s) => (
              <li key={s.name}>
                <strong>{s.name}</strong> — {s.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
