import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon } from '../../../ui/icons';
import { ApprovalSettings } from '../../approvals/components/ApprovalSettings';
import { WorkspaceSettings } from '../../workspace/components/WorkspaceSettings';
import { SettingsPreview } from './SettingsPreview';
import { RoutingSettings } from './RoutingSettings';
import { ModelSettings } from '../../models/components/ModelSettings';
import { useSettingsStore } from '../store';
import '../../routing/routing.css';
import '../../routing/candidates.css';
import '../../routing/details.css';
import '../settings.css';

export function SettingsPage() {
  const { status, settings, error, saving, start } = useSettingsStore(
    useShallow((s) => ({
      status: s.status,
      settings: s.settings,
      error: s.error,
      saving: s.saving,
      start: s.start,
    })),
  );
  useEffect(start, [start]);

  if (!settings) {
    return (
      <div className="page-center">
        {status === 'error' ? (
          <Placeholder icon={<ErrorIcon size={24} />} tone="error" title="Could not load settings">
            <p>{error}</p>
          </Placeholder>
        ) : (
          <Spinner label="Loading settings" />
        )}
      </div>
    );
  }

  return (
    <div className="settings-page" data-testid="settings-page">
      <div className="settings-page__body">
        <div className="settings-page__main">
          <header className="settings-page__header">
            <h1>Settings</h1>
            <span className="settings-page__status" data-testid="settings-status" data-saving={saving}>
              {error ? <span className="tone-red">{error}</span> : saving ? 'Saving…' : 'Saved'}
            </span>
          </header>
          <ModelSettings />
          <RoutingSettings routing={settings.routing} />
          <ApprovalSettings />
          <WorkspaceSettings />
        </div>
        <SettingsPreview />
      </div>
    </div>
  );
}
