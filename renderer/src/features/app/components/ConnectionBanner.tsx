import { useShallow } from 'zustand/react/shallow';
import { InlineCode } from '../../../ui/InlineCode';
import { PlugOffIcon } from '../../../ui/icons';
import { useAppStore } from '../store';

export function ConnectionBanner() {
  const { connection, wasOpen, lostReason } = useAppStore(
    useShallow((s) => ({ connection: s.connection, wasOpen: s.wasOpen, lostReason: s.lostReason })),
  );
  if (connection !== 'lost') return null;
  return (
    <div className="connection-banner" role="alert" data-testid="connection-banner">
      <PlugOffIcon size={16} />
      {wasOpen ? (
        <span>
          <strong>Disconnected from the SkillDeck engine</strong> — restart <code>skilldeck serve</code> and
          reload this page.
        </span>
      ) : (
        <span>
          <strong>Cannot reach the SkillDeck engine</strong> — start <code>skilldeck serve</code> and open the
          URL it prints.
        </span>
      )}
      {lostReason && (
        <span className="connection-banner__reason">
          <InlineCode text={lostReason} />
        </span>
      )}
    </div>
  );
}
