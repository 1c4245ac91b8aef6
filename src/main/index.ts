/**
 * Electron shell: window, menu, IPC bridge, notifications, badge, quit. Everything else is the
 * Electron-free core, the same one `serve` runs.
 */
import { app, dialog, session, type BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, createMainWindow } from './electron/secureWindow';
import { InstanceLockedError } from './core/instance';
import { createHostWorkspace, type HostWorkspace } from './core/workspace';
import { RemoteHosts } from './core/remote';
import { installProcessGuard } from './processGuard';
import { devRendererUrl, installPermissionPolicy, isTrustedRendererUrl } from './electron/rendererPolicy';
import { installAppMenu } from './electron/appMenu';
import { installIpcBridge } from './electron/ipcBridge';
import { installAttention } from './electron/attention';
import { deviceAccessFromArgv, projectFromArgv } from './electron/launchArgs';
import { feedPresence } from './electron/presenceFeed';
import { PresenceBoard } from './core/attention';
import { startDeviceAccess, type DeviceAccess } from './deviceAccess';
import { installTray } from './electron/tray';
import { keepAliveWithoutWindow, quitConfirmation } from './electron/presence';
import { windowShower } from './electron/windowShower';

/** The launcher's own arguments before the user's: `[exe, …]` packaged, `[electron, appPath, …]` in development. */
const firstUserArg = () => (app.isPackaged ? 1 : 2);
/** The desktop app runs as the person and opens what they pick or drop: any folder may be typed. */
const DESKTOP_ROOTS = ['/'];

function startApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let win: BrowserWindow | undefined;
  let host: HostWorkspace | undefined;
  let remotes: RemoteHosts | undefined;
  let deviceAccess: DeviceAccess | undefined;
  let openWindow: (() => Promise<void>) | undefined;
  /** Every open project's processes: quitting and the tray speak for the whole app. */
  const allProcesses = () => host?.workspace.list().flatMap((project) => project.handle.core.listProcesses()) ?? [];

  let isQuitting = false;
  const guard = installProcessGuard(process, {
    name: 'switchboard',
    exit: (code) => app.exit(code),
    log: (line) => console.error(line),
    async stop() {
      isQuitting = true;
      remotes?.dispose(); // only the connections: the hosts' servers and processes keep running
      await deviceAccess?.close();
      await host?.dispose(); // nothing may outlive the app
    },
    killNow() {
      host?.killNow();
    },
  });

  /** Shows the window, or opens a new one onto the open projects (the tray, a notification, the dock). */
  const showWindow = windowShower(
    () => win,
    () => void openWindow?.(),
  );

  let openProject: ((dir: string) => void) | undefined;
  // A second launch (a folder dropped on the dock, `switchboard DIR`) opens its folder here, or focuses it when open.
  app.on('second-instance', (_event, argv, cwd) => {
    showWindow();
    const dir = projectFromArgv(argv, cwd, firstUserArg());
    if (dir) openProject?.(dir);
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openProject?.(path);
  });

  app
    .whenReady()
    .then(async () => {
      installPermissionPolicy(session.defaultSession);
      session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
      });
      const rendererUrl = devRendererUrl(process.env, app.isPackaged);
      const hostWorkspace = (host = createHostWorkspace({
        dataDir: app.getPath('userData'),
        roots: DESKTOP_ROOTS,
        chooseFolder: () => chooseFolder(win),
        log: (line) => console.warn(line),
      }));
      const { workspace, recent } = hostWorkspace;
      // "Add host": the same connect `serve --remote` uses; the built app is what a host gets installed.
      remotes = new RemoteHosts({
        appRoot: resolve(__dirname, '../..'),
        dataDir: app.getPath('userData'),
        trust: false,
        log: console.warn,
      });
      workspace.link(remotes);
      // Notifications and the tray live as long as the app: closing the window is not quitting.
      installAttention(workspace, showWindow);
      // Push, webhooks and ntfy from the app itself, held back while the person is at the window when they asked so.
      const presence = new PresenceBoard();
      deviceAccess = await startDeviceAccess({
        workspace,
        dataDir: app.getPath('userData'),
        staticDir: join(__dirname, '../renderer'),
        flags: deviceAccessFromArgv(process.argv),
        presence,
        log: console.warn,
      });
      if (process.platform !== 'darwin') installTray(workspace, { open: showWindow, quit: () => app.quit() });
      openWindow = async () => {
        const opened = createMainWindow(join(__dirname, '../preload'));
        win = opened;
        const uninstallBridge = installIpcBridge(workspace, opened, (url) => isTrustedRendererUrl(url, rendererUrl));
        const stopPresence = feedPresence(opened, presence);
        opened.once('closed', () => {
          stopPresence();
          uninstallBridge();
          if (win === opened) win = undefined;
        });
        if (rendererUrl) await opened.loadURL(rendererUrl);
        else await opened.loadFile(join(__dirname, '../renderer/index.html'));
      };
      const rebuildMenu = installAppMenu({
        window: () => win,
        recentProjects: () => recent.list().filter((p) => !workspace.list().some((open) => open.dir === p.dir)),
        hasOpenProject: () => workspace.activeId !== undefined,
        openProject: (dir) => openProject?.(dir),
        chooseFolder: () => void workspace.chooseAndOpen().catch(showOpenError),
        closeProject: () => void closeActiveProject(hostWorkspace, win),
        mcp: () => {
          const active = workspace.activeId ? workspace.get(workspace.activeId).handle.mcp : undefined;
          return active && { url: active.url, token: active.token };
        },
        isDevelopment: !app.isPackaged,
      });
      workspace.onChanged(() => rebuildMenu());
      openProject = (dir) => void workspace.open(resolve(dir)).catch(showOpenError);
      // A launch that names a folder opens it; without one the window shows the welcome view (recent projects).
      const initial = projectFromArgv(process.argv, process.cwd(), firstUserArg());
      if (initial) await workspace.open(initial, { grantTrust: process.argv.includes('--trust') });
      await openWindow();
    })
    .catch((err: unknown) => {
      if (err instanceof InstanceLockedError) dialog.showErrorBox('Switchboard is already running', err.message);
      guard.fail(err);
    });

  // Closing the last window is not quitting while entries run: the tray (or dock) keeps the app.
  app.on('window-all-closed', () => {
    if (!keepAliveWithoutWindow(allProcesses(), process.platform)) app.quit();
  });
  app.on('activate', () => showWindow());

  app.on('before-quit', (event) => {
    if (isQuitting || !host || host.workspace.list().length === 0) return;
    // Hold the quit until every process tree is gone: nothing may outlive the app.
    event.preventDefault();
    const ask = quitConfirmation(allProcesses());
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
    void guard.shutdown(0);
  });
}

function showOpenError(err: unknown): void {
  dialog.showErrorBox('Could not open the folder', err instanceof Error ? err.message : String(err));
}

async function chooseFolder(win: BrowserWindow | undefined): Promise<string | undefined> {
  const options = { title: 'Open a project folder', properties: ['openDirectory' as const, 'createDirectory' as const] };
  const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return result.canceled ? undefined : result.filePaths[0];
}

/** File › Close Project: asks before stopping running processes; only that project's trees stop. */
async function closeActiveProject(host: HostWorkspace, win: BrowserWindow | undefined): Promise<void> {
  const { workspace } = host;
  if (!workspace.activeId) return;
  const project = workspace.get(workspace.activeId);
  const running = project.handle.core
    .listProcesses()
    .filter((p) => p.pid !== undefined && p.pid > 0)
    .map((p) => p.name);
  if (running.length > 0 && !(await confirmStop(win, running))) return;
  await workspace.close(project.id);
}

async function confirmStop(win: BrowserWindow | undefined, running: string[]): Promise<boolean> {
  const options = {
    type: 'question' as const,
    buttons: ['Stop them and close', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: `Closing the project stops ${running.length === 1 ? 'a running process' : `${running.length} running processes`}`,
    detail: running.join(', '),
  };
  const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  return response === 0;
}

if (process.versions.electron && !process.env.VITEST) startApp();
