import type { InstallCandidate } from '../../../../../shared/contract';
import { TruncatedPath } from '../../../ui/TruncatedPath';
import { LayersOffIcon } from '../../../ui/icons';
import { useInstallStore } from '../store';

/** A managed skill of that name exists: replace (old one to the trash), rename, or skip. */
export function ConflictChoice({ candidate }: { candidate: InstallCandidate }) {
  const choice = useInstallStore((s) => s.choices[candidate.name]);
  const setChoice = useInstallStore((s) => s.setChoice);
  const conflict = candidate.conflict;
  if (!conflict || !choice) return null;
  const radio = (value: 'replace' | 'rename' | 'skip') => ({
    type: 'radio' as const,
    name: `conflict-${candidate.name}`,
    checked: value === 'skip' ? !choice.selected : choice.selected && choice.onConflict === value,
    onChange: () =>
      setChoice(
        candidate.name,
        value === 'skip' ? { selected: false } : { selected: true, onConflict: value },
      ),
    'data-testid': `conflict-${value}`,
  });

  return (
    <section className="install-conflict" data-testid="install-conflict">
      <div className="install-conflict__head">
        <LayersOffIcon size={15} />
        <span>
          <strong>“{candidate.name}” is already installed</strong>
          {conflict.existingVersion && <> (v{conflict.existingVersion})</>}
        </span>
      </div>
      <TruncatedPath path={conflict.existingId} className="install-conflict__path" />
      <div
        className="install-conflict__options"
        role="radiogroup"
        aria-label="What to do with the installed skill"
      >
        <label className="install-conflict__option">
          <input {...radio('replace')} />
          <span>
            Replace it{' '}
            <span className="muted">— the installed one moves to the trash and can be restored</span>
          </span>
        </label>
        <label className="install-conflict__option">
          <input {...radio('rename')} />
          <span>Install under another name</span>
          <input
            className="field__input install-conflict__name"
            value={choice.newName}
            spellCheck={false}
            onFocus={() => setChoice(candidate.name, { selected: true, onConflict: 'rename' })}
            onChange={(event) => setChoice(candidate.name, { newName: event.target.value })}
            aria-label="New name"
            data-testid="conflict-new-name"
          />
        </label>
        <label className="install-conflict__option">
          <input {...radio('skip')} />
          <span>Don’t install this one</span>
        </label>
      </div>
    </section>
  );
}
