import { useAppStore } from './features/app/store';
import { ActivityPage } from './features/activity/components/ActivityPage';
import { AppShell } from './features/app/components/AppShell';
import { useAppStateSignal, type AppReadiness } from './features/app/useAppStateSignal';
import { useView } from './features/app/useView';
import { ChatPage } from './features/chat/components/ChatPage';
import { RepairPage } from './features/repair/components/RepairPage';
import { RunsPage } from './features/runs/components/RunsPage';
import { SettingsPage } from './features/settings/components/SettingsPage';
import { SkillsPage } from './features/skills/components/SkillsPage';
import { useSkillsStore } from './features/skills/store';

export function App() {
  const skillsStatus = useSkillsStore((s) => s.status);
  const lost = useAppStore((s) => s.connection === 'lost');
  const readiness: AppReadiness =
    skillsStatus === 'ready' ? 'ready' : skillsStatus === 'error' || lost ? 'error' : 'loading';
  useAppStateSignal(readiness);
  const view = useView();

  return (
    <AppShell>
      {view === 'chat' && <ChatPage />}
      {view === 'skills' && <SkillsPage />}
      {view === 'runs' && <RunsPage />}
      {view === 'activity' && <ActivityPage />}
      {view === 'settings' && <SettingsPage />}
      {view === 'repair' && <RepairPage />}
    </AppShell>
  );
}
