import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { connect } from './transport';
import { useUi } from './store';
import { panes } from './terminalPane';
import { Sidebar } from './components/Sidebar';
import { Grid } from './components/Grid';
import { TrustPrompt } from './components/TrustPrompt';
import { installShortcuts } from './shortcuts';
import { Inbox } from './components/Inbox';
import { CommandPalette } from './components/CommandPalette';
import { TimerForm } from './components/TimerForm';
import { installTitleBadge } from './titleBadge';
import { installNotifications } from './notifications';
import { applyUiCommand } from './uiCommands';

function App() {
  const error = useUi((s) => s.error);
  const isConnected = useUi((s) => s.client !== undefined);
  const isSidebarHidden = useUi((s) => s.isSidebarHidden);
  const overlay = useUi((s) => s.overlay);
  useEffect(() => installShortcuts(), []);
  useEffect(() => installTitleBadge(), []);
  useEffect(() => installNotifications(), []);
  return (
    <div className={`app${isSidebarHidden ? ' sidebar-hidden' : ''}`} data-testid="app" data-connected={isConnected}>
      {!isSidebarHidden && <Sidebar />}
      <Grid />
      <TrustPrompt />
      {overlay?.kind === 'inbox' && <Inbox />}
      {overlay?.kind === 'palette' && <CommandPalette />}
      {overlay?.kind === 'timer' && <TimerForm ownerId={overlay.ownerId} />}
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
  // Output goes straight to the pane's terminal; everything else updates the store.
  client.onEvent((event) => {
    if (event.type === 'output') panes.get(event.id)?.deliver(event);
    else if (event.type === 'uiCommand') applyUiCommand(event.command);
    else useUi.getState().apply(event);
  });
  useUi.getState().setClient(client, await client.call('getSnapshot', {}));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
boot().catch((err) => useUi.getState().setError(err instanceof Error ? err.message : String(err)));
