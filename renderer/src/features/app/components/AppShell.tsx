import type { ReactNode } from 'react';
import { ApprovalDialog } from '../../approvals/components/ApprovalDialog';
import { TrustBanner } from '../../workspace/components/TrustBanner';
import { ConnectionBanner } from './ConnectionBanner';
import { NavRail } from './NavRail';
import { SettingsProblemBanner } from './SettingsProblemBanner';
import { TopBar } from './TopBar';
import '../app.css';

interface AppShellProps {
  /**
   * The page's h1 when the view shows no title of its own (its name is on the rail): one h1 per
   * page for a screen reader's heading list. Chat (the conversation) and Settings draw theirs.
   */
  heading?: string;
  children: ReactNode;
}

export function AppShell({ heading, children }: AppShellProps) {
  return (
    <div className="app-shell">
      <TopBar />
      <ConnectionBanner />
      <SettingsProblemBanner />
      <TrustBanner />
      <div className="app-shell__body">
        <NavRail />
        <main className="app-shell__main">
          {heading && <h1 className="visually-hidden">{heading}</h1>}
          {children}
        </main>
      </div>
      {/* Global: a request is answered wherever the user is (what-users-ask #3). */}
      <ApprovalDialog />
    </div>
  );
}
