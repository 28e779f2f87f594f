import { useAppStore } from './features/app/store';
import { ActivityPage } from './features/activity/components/ActivityPage';
import { AppShell } from './features/app/components/AppShell';
import { useAppStateSignal, type AppReadiness } from './features/app/useAppStateSignal';
import { useView, type View } from './features/app/useView';
import { ChatPage } from './features/chat/components/ChatPage';
import { RepairPage } from './features/repair/components/RepairPage';
import { RunsPage } from './features/runs/components/RunsPage';
import { SettingsPage } from './features/settings/components/SettingsPage';
import { SkillsPage } from './features/skills/components/SkillsPage';
import { useSkillsStore } from './features/skills/store';

/** The page's h1 where the view has no visible title; Chat and Settings show their own. */
const HEADINGS: Record<View, string | undefined> = {
  chat: undefined,
  skills: 'Skills',
  runs: 'Runs',
  activity: 'Activity',
  settings: undefined,
  repair: 'Repair',
};

export function App() {
  const skillsStatus = useSkillsStore((s) => s.status);
  const lost = useAppStore((s) => s.connection === 'lost');
  const readiness: AppReadiness =
    skillsStatus === 'ready' ? 'ready' : skillsStatus === 'error' || lost ? 'error' : 'loading';
  useAppStateSignal(readiness);
  const view = useView();

  return (
    <AppShell heading={HEADINGS[view]}>
      {view === 'chat' && <ChatPage />}
      {view === 'skills' && <SkillsPage />}
      {view === 'runs' && <RunsPage />}
      {view === 'activity' && <ActivityPage />}
      {view === 'settings' && <SettingsPage />}
      {view === 'repair' && <RepairPage />}
    </AppShell>
  );
}
