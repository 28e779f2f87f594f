import { useShallow } from 'zustand/react/shallow';
import { RefreshIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';

export function ReloadButton() {
  const { reloading, reload } = useSkillsStore(
    useShallow((s) => ({ reloading: s.reloading, reload: s.reload })),
  );
  return (
    <button
      type="button"
      className={`icon-button icon-button--bordered${reloading ? ' is-spinning' : ''}`}
      onClick={() => void reload()}
      disabled={reloading}
      title="Re-scan every skill folder"
      aria-label="Reload skills"
      data-testid="skill-reload"
    >
      <RefreshIcon size={15} />
    </button>
  );
}
