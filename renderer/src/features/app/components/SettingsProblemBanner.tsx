import { useState } from 'react';
import { WarningIcon } from '../../../ui/icons';
import { useAppStore } from '../store';

const KEY = 'skilldeck.settingsProblemSeen';

function seen(problem: string): boolean {
  try {
    return localStorage.getItem(KEY) === problem;
  } catch {
    return false;
  }
}

/**
 * What the engine did with a settings.json it could not use as written (not JSON, or fields that do
 * not fit): which settings took their defaults and where the file as it was is kept. Before, only
 * the CLI said so; the window showed defaults as if they were the user's choices, and the next
 * change of a setting overwrote the file. Shown until dismissed; a new problem shows again.
 */
export function SettingsProblemBanner() {
  const problem = useAppStore((s) => s.info?.settingsProblem);
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!problem || dismissed === problem || seen(problem)) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(KEY, problem);
    } catch {
      // Storage off: it stays hidden until the next reload.
    }
    setDismissed(problem);
  };
  return (
    <div className="banner" role="region" aria-label="Settings problem" data-testid="settings-problem">
      <WarningIcon size={16} />
      <div className="banner__text">
        <strong>Your settings.json could not be used as written.</strong> {problem}
      </div>
      <div className="banner__actions">
        <a className="button button--small" href="#settings">
          Open Settings
        </a>
        <button
          type="button"
          className="button button--small button--quiet"
          onClick={dismiss}
          data-testid="settings-problem-dismiss"
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
