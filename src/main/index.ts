/**
 * Electron shell: window, IPC bridge, notifications, badge, quit. Everything else is the
 * Electron-free core, the same one `serve` runs.
 */
import { app, dialog, session, type BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { createCore, type CoreHandle } from './core/composition';
import { CONTENT_SECURITY_POLICY, createMainWindow } from './electron/secureWindow';
import { installIpcBridge } from './electron/ipcBridge';
import { installAttention } from './electron/attention';
import { removeEndpointFile, writeEndpointFile } from './core/mcp';
import { InstanceLockedError } from './core/instance';
import { installProcessGuard } from './processGuard';
import { devRendererUrl, installPermissionPolicy, isTrustedRendererUrl } from './electron/rendererPolicy';

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

  let isQuitting = false;
  const guard = installProcessGuard(process, {
    name: 'switchboard',
    exit: (code) => app.exit(code),
    log: (line) => console.error(line),
    async stop() {
      isQuitting = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
      await handle?.dispose(); // nothing may outlive the app
    },
    killNow() {
      for (const cleanup of cleanups.splice(0)) cleanup();
      handle?.killNow();
    },
  });

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  app
    .whenReady()
    .then(async () => {
      installPermissionPolicy(session.defaultSession);
      session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
      });
      handle = await createCore({ projectDir: projectDirFromArgv(process.argv, process.cwd()), dataDir: app.getPath('userData') });
      // MCP discovery (docs/mcp.md): {url, token, pid}, mode 0600, removed on quit.
      writeEndpointFile(app.getPath('userData'), { url: handle.mcp.url, token: handle.mcp.token, pid: process.pid });
      cleanups.push(() => removeEndpointFile(app.getPath('userData')));
      win = createMainWindow(join(__dirname, '../preload'));
      const rendererUrl = devRendererUrl(process.env, app.isPackaged);
      const isTrustedUrl = (url: string) => isTrustedRendererUrl(url, rendererUrl);
      cleanups.push(installIpcBridge(handle.core, win, isTrustedUrl), installAttention(handle.core, win));
      if (rendererUrl) await win.loadURL(rendererUrl);
      else await win.loadFile(join(__dirname, '../renderer/index.html'));
    })
    .catch((err: unknown) => {
      if (err instanceof InstanceLockedError) dialog.showErrorBox('Switchboard is already running', err.message);
      guard.fail(err);
    });

  app.on('window-all-closed', () => app.quit());

  app.on('before-quit', (event) => {
    if (isQuitting || !handle) return;
    // Hold the quit until every process tree is gone: nothing may outlive the app.
    event.preventDefault();
    void guard.shutdown(0);
  });
}

if (process.versions.electron && !process.env.VITEST) startApp();
