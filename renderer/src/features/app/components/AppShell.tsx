import type { ReactNode } from 'react';
import { ApprovalDialog } from '../../approvals/components/ApprovalDialog';
import { TrustBanner } from '../../workspace/components/TrustBanner';
import { ConnectionBanner } from './ConnectionBanner';
import { NavRail } from './NavRail';
import { TopBar } from './TopBar';
import '../app.css';

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="app-shell">
      <TopBar />
      <ConnectionBanner />
      <TrustBanner />
      <div className="app-shell__body">
        <NavRail />
        <main className="app-shell__main">{children}</main>
      </div>
      {/* Global: a request is answered wherever the user is (what-users-ask #3). */}
      <ApprovalDialog />
    </div>
  );
}
