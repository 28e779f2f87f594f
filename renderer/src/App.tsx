import { useAppStore } from './features/app/store';
import { AppShell } from './features/app/components/AppShell';
import { useAppStateSignal, type AppReadiness } from './features/app/useAppStateSignal';
import { SkillsPage } from './features/skills/components/SkillsPage';
import { useSkillsStore } from './features/skills/store';

export function App() {
  const skillsStatus = useSkillsStore((s) => s.status);
  const lost = useAppStore((s) => s.connection === 'lost');
  const readiness: AppReadiness =
    skillsStatus === 'ready' ? 'ready' : skillsStatus === 'error' || lost ? 'error' : 'loading';
  useAppStateSignal(readiness);

  return (
    <AppShell>
      <SkillsPage />
    </AppShell>
  );
}
