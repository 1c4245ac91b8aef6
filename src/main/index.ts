/**
 * Electron shell: window, menu, tray, notifications, badge, quit. Everything else is the
 * Electron-free core, the same one `serve` runs.
 */
import { app, dialog, session, type BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, createMainWindow } from './electron/secureWindow';
import { InstanceLockedError } from './core/instance';
import { RecentProjects } from './core/projects';
import { installProcessGuard } from './processGuard';
import { devRendererUrl, installPermissionPolicy, isTrustedRendererUrl } from './electron/rendererPolicy';
import { installAppMenu } from './electron/appMenu';
import { ProjectSession } from './electron/projectSession';
import { projectFromArgv } from './electron/launchArgs';
import { keepAliveWithoutWindow, quitConfirmation } from './electron/presence';
import { windowShower } from './electron/windowShower';

/** The launcher's own arguments before the user's: `[exe, …]` packaged, `[electron, appPath, …]` in development. */
const firstUserArg = () => (app.isPackaged ? 1 : 2);

export function startApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let win: BrowserWindow | undefined;
  let project: ProjectSession | undefined;
  let openWindow: (() => Promise<void>) | undefined;

  let isQuitting = false;
  const guard = installProcessGuard(process, {
    name: 'switchboard',
    exit: (code) => app.exit(code),
    log: (line) => console.error(line),
    async stop() {
      isQuitting = true;
      await project?.dispose(); // nothing may outlive the app
    },
    killNow() {
      project?.killNow();
    },
  });

  /** Shows the window, or opens a new one onto the running project (the tray, a notification, the dock). */
  const showWindow = windowShower(
    () => win,
    () => void openWindow?.(),
  );

  let openProject: ((dir: string) => void) | undefined;
  // A second launch (a folder dropped on the dock, `switchboard DIR`) opens its folder here.
  app.on('second-instance', (_event, argv, cwd) => {
    showWindow();
    const dir = projectFromArgv(argv, cwd, firstUserArg());
    if (dir) openProject?.(dir);
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openProject?.(path);
  });
  app.on('activate', showWindow); // macOS: the dock icon reopens the window

  app
    .whenReady()
    .then(async () => {
      installPermissionPolicy(session.defaultSession);
      session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
      });
      const rendererUrl = devRendererUrl(process.env, app.isPackaged);
      const recent = new RecentProjects(app.getPath('userData'));
      const session_ = (project = new ProjectSession({
        dataDir: app.getPath('userData'),
        recent,
        isTrustedUrl: (url) => isTrustedRendererUrl(url, rendererUrl),
        confirmStop: (names) => confirmStop(win, names),
        showWindow,
        quit: () => app.quit(),
        grantTrustAtLaunch: process.argv.includes('--trust'),
        log: (line) => console.warn(line),
      }));
      openWindow = async () => {
        const opened = createMainWindow(join(__dirname, '../preload'));
        win = opened;
        opened.once('closed', () => {
          if (win === opened) win = undefined;
        });
        session_.attachWindow(opened);
        if (rendererUrl) await opened.loadURL(rendererUrl);
        else await opened.loadFile(join(__dirname, '../renderer/index.html'));
      };
      // Until the welcome view lands, a launch without a project opens the most recent one, then the launch directory.
      const initial = projectFromArgv(process.argv, process.cwd(), firstUserArg()) ?? recent.list()[0]?.dir ?? process.cwd();
      await session_.open(initial);
      openProject = (dir) =>
        void session_
          .open(resolve(dir))
          .then((opened) => {
            rebuildMenu();
            if (opened && win && !win.isDestroyed()) win.webContents.reload(); // the page re-reads the new project's snapshot
          })
          .catch((err: unknown) => dialog.showErrorBox('Could not open the folder', err instanceof Error ? err.message : String(err)));
      const rebuildMenu = installAppMenu({
        window: () => win,
        recentProjects: () => recent.list().filter((p) => p.dir !== session_.handle?.core.projectDir),
        hasOpenProject: () => session_.handle !== undefined,
        openProject,
        closeProject: () => app.quit(),
        mcp: () => session_.handle && { url: session_.handle.mcp.url, token: session_.handle.mcp.token },
        isDevelopment: !app.isPackaged,
      });
      await openWindow();
    })
    .catch((err: unknown) => {
      if (err instanceof InstanceLockedError) dialog.showErrorBox('Switchboard is already running', err.message);
      guard.fail(err);
    });

  // Closing the last window is not quitting while entries run: the tray (or dock) keeps the app.
  app.on('window-all-closed', () => {
    const handle = project?.handle;
    if (!handle || !keepAliveWithoutWindow(handle.core.listProcesses(), process.platform)) app.quit();
  });

  app.on('before-quit', (event) => {
    const handle = project?.handle;
    if (isQuitting || !handle) return;
    // Hold the quit until every process tree is gone: nothing may outlive the app.
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
    void guard.shutdown(0);
  });
}

async function confirmStop(win: BrowserWindow | undefined, running: string[]): Promise<boolean> {
  const options = {
    type: 'question' as const,
    buttons: ['Stop them and open', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: `Opening another folder stops ${running.length === 1 ? 'a running process' : `${running.length} running processes`}`,
    detail: running.join(', '),
  };
  const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  return response === 0;
}

if (process.versions.electron && !process.env.VITEST) startApp();
