import { flushSync } from 'react-dom';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { TruncatedPath } from '../../../ui/TruncatedPath';
import { ChevronIcon, CheckIcon, InfoIcon } from '../../../ui/icons';
import { useSkillsStore } from '../../skills/store';
import { useInstallStore } from '../store';

/** What got installed where, each a link into the list; what was skipped and why. */
export function ResultView({ onShown }: { onShown?: () => void }) {
  const { result, reveal, preview } = useInstallStore(
    useShallow((s) => ({ result: s.result, reveal: s.reveal, preview: s.preview })),
  );
  // Installed with a load error (a frontmatter never closed): listed, but never routed. The
  // catalog says so once it has the skill; until then the preview's problems do.
  const broken = useSkillsStore(
    useShallow((s) =>
      (result?.installed ?? [])
        .filter((i) => {
          const problems =
            s.byId[i.id]?.problems ?? preview?.candidates.find((c) => c.name === i.name)?.problems ?? [];
          return problems.some((p) => p.severity === 'error');
        })
        .map((i) => i.id),
    ),
  );
  if (!result) return null;
  const { installed, skipped } = result;
  const routable = installed.length - broken.length;

  return (
    <div className="install-result" data-testid="install-result">
      <div className={`install-result__banner${installed.length ? '' : ' is-empty'}`}>
        {installed.length ? <CheckIcon size={20} /> : <InfoIcon size={20} />}
        <span>
          {installed.length === 0
            ? 'Nothing was installed.'
            : broken.length === 0
              ? `${plural(installed.length, 'skill')} installed. The router can use ${installed.length === 1 ? 'it' : 'them'} now.`
              : `${plural(installed.length, 'skill')} installed. ${
                  routable === 0
                    ? `An error in ${installed.length === 1 ? 'its' : 'their'} SKILL.md keeps ${installed.length === 1 ? 'it' : 'them'} out of routing until it is fixed.`
                    : `${broken.length} of them ${broken.length === 1 ? 'has an error that keeps it' : 'have errors that keep them'} out of routing until fixed.`
                }`}
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
                  if (broken.includes(skill.id)) useSkillsStore.getState().setTab('problems');
                  onShown?.();
                }}
                data-testid="install-result-link"
                data-skill-name={skill.name}
              >
                <span className="install-result__texts">
                  <span className="install-result__name">{skill.name}</span>
                  <TruncatedPath path={skill.path} className="install-result__path" />
                  {broken.includes(skill.id) && (
                    <span className="install-result__note tone-red" data-testid="install-result-broken">
                      Listed but never routed: its SKILL.md has an error. Show it to see the error and how to
                      fix it.
                    </span>
                  )}
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
