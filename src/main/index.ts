/**
 * Electron shell: window, IPC bridge, notifications, badge, quit. Everything else is the
 * Electron-free core, the same one `serve` runs.
 */
import { app, dialog, session, type BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { createCore, type CoreHandle } from './core/app/createCore';
import { CONTENT_SECURITY_POLICY, createMainWindow } from './electron/secureWindow';
import { installIpcBridge } from './electron/ipcBridge';
import { installAttention } from './electron/attention';
import { readEndpointFile, removeEndpointFile, writeEndpointFile } from './core/mcp';
import { isProcessAlive } from './core/sessions';
import { installTray } from './electron/tray';
import { keepAliveWithoutWindow, quitConfirmation } from './electron/presence';

export function projectDirFromArgv(argv: readonly string[], cwd: string): string {
  const index = argv.lastIndexOf('--project');
  return resolve(cwd, index >= 0 && argv[index + 1] ? argv[index + 1] : '.');
}

export function startApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let handle: CoreHandle | undefined;
  let win: BrowserWindow | undefined;
  const cleanups: Array<() => void> = [];

  const showWindow = () => {
    if (!handle) return;
    if (win && !win.isDestroyed()) {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      return;
    }
    void openWindow(handle);
  };

  /** A window onto the running core; closing it leaves the core (and every entry) running. */
  const openWindow = async (core: CoreHandle) => {
    const opened = createMainWindow(join(__dirname, '../preload'));
    win = opened;
    const rendererUrl = process.env.ELECTRON_RENDERER_URL;
    const isTrustedUrl = (url: string) => (rendererUrl ? url.startsWith(rendererUrl) : url.startsWith('file://'));
    const uninstallBridge = installIpcBridge(core.core, opened, isTrustedUrl);
    opened.once('closed', () => {
      uninstallBridge();
      if (win === opened) win = undefined;
    });
    if (rendererUrl) await opened.loadURL(rendererUrl);
    else await opened.loadFile(join(__dirname, '../renderer/index.html'));
  };

  app.on('second-instance', showWindow);
  app.on('activate', showWindow); // macOS: the dock icon reopens the window

  app
    .whenReady()
    .then(async () => {
      session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
      });
      const dataDir = app.getPath('userData');
      // A previous instance that crashed left its discovery file naming a dead endpoint.
      const stale = readEndpointFile(dataDir);
      if (stale && stale.pid !== process.pid && !isProcessAlive(stale.pid)) removeEndpointFile(dataDir, stale.pid);
      handle = await createCore({
        projectDir: projectDirFromArgv(process.argv, process.cwd()),
        dataDir,
        onContinuityProblem: (m) => console.warn(`switchboard: ${m}`),
      });
      // MCP discovery (SPEC §5): {url, token, pid}, mode 0600, removed on quit.
      writeEndpointFile(dataDir, { url: handle.mcp.url, token: handle.mcp.token, pid: process.pid });
      cleanups.push(() => removeEndpointFile(dataDir));
      cleanups.push(installAttention(handle.core, showWindow));
      if (process.platform !== 'darwin') cleanups.push(installTray(handle.core, { open: showWindow, quit: () => app.quit() }));
      await openWindow(handle);
    })
    .catch((err: unknown) => {
      // Without a core or a window there is nothing to show: say why and leave no half-started app behind.
      console.error('Switchboard failed to start:', err);
      app.exit(1);
    });

  // Closing the last window is not quitting while entries run: the tray (or dock) keeps the app.
  app.on('window-all-closed', () => {
    if (!handle || !keepAliveWithoutWindow(handle.core.listProcesses(), process.platform)) app.quit();
  });

  let isQuitting = false;
  app.on('before-quit', (event) => {
    if (isQuitting || !handle) return;
    event.preventDefault();
    const ask = quitConfirmation(handle.core.listProcesses());
    if (ask) {
      const answer = dialog.showMessageBoxSync({
        type: 'warning',
        message: ask.message,
        detail: ask.detail,
        buttons: ask.buttons,
        defaultId: 1,
        cancelId: 1,
      });
      if (answer !== 0) return;
    }
    // Hold the quit until every process tree is gone: nothing may outlive the app.
    isQuitting = true;
    for (const cleanup of cleanups) cleanup();
    void handle.dispose().finally(() => app.exit(0));
  });
}

if (process.versions.electron && !process.env.VITEST) startApp();
