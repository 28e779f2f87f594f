import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { useAppStore } from './features/app/store';
import { useApprovalsStore } from './features/approvals/store';
import { useRunsStore } from './features/runs/store';
import { useSkillsStore } from './features/skills/store';
import { useWorkspaceStore } from './features/workspace/store';
import { setClient } from './lib/client';
import { connect } from './lib/transport';
import './styles/theme.css';
import './styles/base.css';
import './ui/ui.css';

const connection = connect();
setClient(connection.client);
useAppStore.getState().start(connection);
useSkillsStore.getState().start();
// Before any view: the trust banner shows wherever the window opens.
useWorkspaceStore.getState().start();
// Before any view: a reloaded window shows pending approvals at once, and runs follow their events.
useApprovalsStore.getState().start();
useRunsStore.getState().start();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
