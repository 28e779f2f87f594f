import type { ReactNode } from 'react';
import { ConnectionBanner } from './ConnectionBanner';
import { NavRail } from './NavRail';
import { TopBar } from './TopBar';
import '../app.css';

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="app-shell">
      <TopBar />
      <ConnectionBanner />
      <div className="app-shell__body">
        <NavRail />
        <main className="app-shell__main">{children}</main>
      </div>
    </div>
  );
}
