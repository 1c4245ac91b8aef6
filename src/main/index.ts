/**
 * Electron shell: window, IPC bridge, notifications, badge, quit. Everything else is the
 * Electron-free core, the same one `serve` runs.
 */
import { app, session, type BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { createCore, type CoreHandle } from './core/composition';
import { CONTENT_SECURITY_POLICY, createMainWindow } from './electron/secureWindow';
import { installIpcBridge } from './electron/ipcBridge';
import { installAttention } from './electron/attention';
import { removeEndpointFile, writeEndpointFile } from './core/mcp';

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

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  app
    .whenReady()
    .then(async () => {
      session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
      });
      handle = await createCore({ projectDir: projectDirFromArgv(process.argv, process.cwd()), dataDir: app.getPath('userData') });
      // MCP discovery (docs/mcp.md): {url, token, pid}, mode 0600, removed on quit.
      writeEndpointFile(app.getPath('userData'), { url: handle.mcp.url, token: handle.mcp.token, pid: process.pid });
      cleanups.push(() => removeEndpointFile(app.getPath('userData')));
      win = createMainWindow(join(__dirname, '../preload'));
      const rendererUrl = process.env.ELECTRON_RENDERER_URL;
      const isTrustedUrl = (url: string) => (rendererUrl ? url.startsWith(rendererUrl) : url.startsWith('file://'));
      cleanups.push(installIpcBridge(handle.core, win, isTrustedUrl), installAttention(handle.core, win));
      if (rendererUrl) await win.loadURL(rendererUrl);
      else await win.loadFile(join(__dirname, '../renderer/index.html'));
    })
    .catch((err: unknown) => {
      // Without a core or a window there is nothing to show: say why and leave no half-started app behind.
      console.error('Switchboard failed to start:', err);
      app.exit(1);
    });

  app.on('window-all-closed', () => app.quit());

  let isQuitting = false;
  app.on('before-quit', (event) => {
    if (isQuitting || !handle) return;
    // Hold the quit until every process tree is gone: nothing may outlive the app.
    event.preventDefault();
    isQuitting = true;
    for (const cleanup of cleanups) cleanup();
    void handle.dispose().finally(() => app.exit(0));
  });
}

if (process.versions.electron && !process.env.VITEST) startApp();
