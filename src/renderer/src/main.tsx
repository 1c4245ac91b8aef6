import { StrictMode, useEffect } from 'react';
import type { ControlClient } from '../../shared/api';
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { connect, onConnectionChange, onReconnect } from './transport';
import { useUi } from './store';
import { panes } from './terminalPane';
import { Sidebar } from './components/Sidebar';
import { Grid } from './components/Grid';
import { TrustPrompt } from './components/TrustPrompt';
import { installKeyboardNavigation } from './keyboard';
import { installTitleBadge } from './titleBadge';
import { installNotifications } from './notifications';
import { applyUiCommand } from './uiCommands';
import { installThemeController } from './themeController';
import { SidebarResizer } from './components/SidebarResizer';
import { ConnectionBanner } from './components/ConnectionBanner';

function App() {
  const error = useUi((s) => s.error);
  const isConnected = useUi((s) => s.client !== undefined);
  const isSidebarHidden = useUi((s) => s.isSidebarHidden);
  const sidebarWidth = useUi((s) => s.view.sidebarWidth);
  useEffect(() => installKeyboardNavigation(), []);
  useEffect(() => installThemeController(), []);
  useEffect(() => installTitleBadge(), []);
  useEffect(() => installNotifications(), []);
  return (
    <div
      className={`app${isSidebarHidden ? ' sidebar-hidden' : ''}`}
      data-testid="app"
      data-connected={isConnected}
      style={isSidebarHidden ? undefined : { gridTemplateColumns: `${sidebarWidth}px 4px 1fr` }}
    >
      {!isSidebarHidden && <Sidebar />}
      {!isSidebarHidden && <SidebarResizer />}
      <Grid />
      <TrustPrompt />
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
  // Output goes straight to the pane's terminal; everything else updates the store.
  client.onEvent((event) => {
    if (event.type === 'output') panes.get(event.id)?.deliver(event);
    else if (event.type === 'uiCommand') applyUiCommand(event.command);
    else useUi.getState().apply(event);
  });
  const [snapshot, view] = await Promise.all([client.call('getSnapshot', {}), client.call('getUiState', {})]);
  useUi.setState({ view });
  useUi.getState().setClient(client, snapshot);
  onConnectionChange((change) => useUi.setState({ connection: change }));
  // After a drop the entries may have changed (or all be new, if serve restarted): start from the core's state again.
  onReconnect(() => void resync(client));
}

async function resync(client: ControlClient): Promise<void> {
  try {
    const [snapshot, view] = await Promise.all([client.call('getSnapshot', {}), client.call('getUiState', {})]);
    useUi.setState({ view });
    useUi.getState().setClient(client, snapshot);
    // Panes whose entry still exists show its current screen; the rest unmount with their entry.
    await Promise.all([...panes.values()].map((pane) => pane.attach().catch(() => undefined)));
  } catch (err) {
    useUi.getState().setError(err instanceof Error ? err.message : String(err));
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
boot().catch((err) => useUi.getState().setError(err instanceof Error ? err.message : String(err)));
