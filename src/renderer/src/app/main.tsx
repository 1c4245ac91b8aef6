import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { connect, onConnectionChange, onReconnect } from './transport';
import { useUi } from './store';
import { panes } from '../terminal/terminalPane';
import { Sidebar } from './Sidebar';
import { Grid } from '../panes/Grid';
import { TrustPrompt } from '../trust/TrustPrompt';
import { installShortcuts } from './windowShortcuts';
import { Inbox } from '../inbox/Inbox';
import { CommandPalette } from '../palette/CommandPalette';
import { TimerForm } from '../timers/TimerForm';
import { installTitleBadge } from './titleBadge';
import { installNotifications } from './notifications';
import { applyUiCommand } from './uiCommands';
import { connectWorkspace, resyncWorkspace, routeProjectEvent } from '../projects/projects';
import { Welcome } from '../projects/Welcome';
import { installThemeController } from '../terminal/themeController';
import { SidebarResizer } from './SidebarResizer';
import { ConnectionBanner } from './ConnectionBanner';
import { NewWorktreeAgent } from '../worktrees/NewWorktreeAgent';
import { WorktreeReview } from '../worktrees/WorktreeReview';
import { WorktreePrune } from '../worktrees/WorktreePrune';
import { UsageView } from '../usage/UsageView';
import { installWorktreeRefresh } from '../worktrees/worktrees';
import { PhoneView } from '../phone/PhoneView';
import { useIsPhoneWidth } from '../phone/phoneWidth';
import { registerServiceWorker } from '../pwa/registerServiceWorker';
import { PairDevice } from '../devices/PairDevice';
import { DevicesPanel } from '../devices/DevicesPanel';
import { installPresenceReport } from './presenceReport';
import { PAIR_PATH, pairingCodeOf } from '../devices/pairing';

function App() {
  const error = useUi((s) => s.error);
  // Connected: the workspace answered and the active project's view (if any) is loaded.
  const isConnected = useUi((s) => s.workspace !== undefined && (s.activeProjectId === undefined || s.client !== undefined));
  const hasProject = useUi((s) => s.activeProjectId !== undefined);
  const isWelcome = useUi((s) => s.workspace !== undefined && (s.activeProjectId === undefined || s.isOpeningAnother));
  // At phone width the phone view replaces sidebar and grid: same stores, another layout.
  const isPhone = useIsPhoneWidth();
  const isSidebarHidden = useUi((s) => s.isSidebarHidden || s.activeProjectId === undefined) || isPhone;
  const sidebarWidth = useUi((s) => s.view.sidebarWidth);
  const overlay = useUi((s) => s.overlay);
  useEffect(() => installShortcuts(), []);
  useEffect(() => installThemeController(), []);
  useEffect(() => installTitleBadge(), []);
  useEffect(() => installNotifications(), []);
  useEffect(() => installWorktreeRefresh(), []);
  useEffect(() => installPresenceReport(), []);
  return (
    <div
      className={`app${isSidebarHidden ? ' sidebar-hidden' : ''}`}
      data-testid="app"
      data-connected={isConnected}
      style={isSidebarHidden ? undefined : { gridTemplateColumns: `${sidebarWidth}px 4px 1fr` }}
    >
      {!isSidebarHidden && <Sidebar />}
      {!isSidebarHidden && <SidebarResizer />}
      {isWelcome ? <Welcome /> : hasProject && (isPhone ? <PhoneView /> : <Grid />)}
      {hasProject && <TrustPrompt />}
      {hasProject && overlay?.kind === 'inbox' && <Inbox />}
      {overlay?.kind === 'palette' && <CommandPalette />}
      {hasProject && overlay?.kind === 'timer' && <TimerForm ownerId={overlay.ownerId} />}
      {hasProject && overlay?.kind === 'newWorktree' && <NewWorktreeAgent />}
      {hasProject && overlay?.kind === 'worktreeDiff' && <WorktreeReview key={overlay.worktree} worktree={overlay.worktree} />}
      {hasProject && overlay?.kind === 'pruneWorktrees' && <WorktreePrune />}
      {hasProject && overlay?.kind === 'usage' && <UsageView />}
      {overlay?.kind === 'devices' && <DevicesPanel />}
      <ConnectionBanner />
      {error && (
        <div className="toast" role="alert" data-testid="error-toast" onClick={() => useUi.getState().setError(undefined)}>
          {error}
        </div>
      )}
    </div>
  );
}

async function boot(): Promise<void> {
  const client = await connect();
  // Output goes straight to the pane's terminal (ids are unique across projects); everything else updates the store.
  client.onEvent((event, project) => {
    if (event.type === 'output') panes.get(event.id)?.deliver(event);
    // A remote host came back: the pane takes the host's current screen, as after a reconnect of our own.
    else if (event.type === 'outputReset')
      void panes
        .get(event.id)
        ?.attach()
        .catch(() => undefined);
    else if (event.type === 'uiCommand') applyUiCommand(event.command);
    else routeProjectEvent(event, project);
  });
  await connectWorkspace(client);
  registerServiceWorker();
  onConnectionChange((change) => useUi.setState({ connection: change }));
  // After a drop the projects and entries may have changed (or all be new, if serve restarted): start from the core's state again.
  onReconnect(
    () => void resyncWorkspace().catch((err: unknown) => useUi.getState().setError(err instanceof Error ? err.message : String(err))),
  );
}

const root = createRoot(document.getElementById('root')!);
if (location.pathname === PAIR_PATH) {
  // The pairing code is read once and dropped from the address bar (and its history entry).
  const code = pairingCodeOf(location.hash);
  history.replaceState(null, '', PAIR_PATH);
  root.render(
    <StrictMode>
      <PairDevice code={code} />
    </StrictMode>,
  );
} else {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  boot().catch((err) => useUi.getState().setError(err instanceof Error ? err.message : String(err)));
}
