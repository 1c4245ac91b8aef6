/**
 * Electron shell: window, menu, IPC bridge, notifications, badge, quit. Everything else is the
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

/** The launcher's own arguments before the user's: `[exe, …]` packaged, `[electron, appPath, …]` in development. */
const firstUserArg = () => (app.isPackaged ? 1 : 2);

export function startApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let win: BrowserWindow | undefined;
  let project: ProjectSession | undefined;

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

  let openProject: ((dir: string) => void) | undefined;
  // A second launch (a folder dropped on the dock, `switchboard DIR`) opens its folder here.
  app.on('second-instance', (_event, argv, cwd) => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
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
      const mainWindow = (win = createMainWindow(join(__dirname, '../preload')));
      const rendererUrl = devRendererUrl(process.env, app.isPackaged);
      const recent = new RecentProjects(app.getPath('userData'));
      const session_ = (project = new ProjectSession({
        dataDir: app.getPath('userData'),
        recent,
        isTrustedUrl: (url) => isTrustedRendererUrl(url, rendererUrl),
        confirmStop: (names) => confirmStop(mainWindow, names),
        grantTrustAtLaunch: process.argv.includes('--trust'),
      }));
      // Until the welcome view lands, a launch without a project opens the most recent one, then the launch directory.
      const initial = projectFromArgv(process.argv, process.cwd(), firstUserArg()) ?? recent.list()[0]?.dir ?? process.cwd();
      await session_.open(initial, mainWindow);
      openProject = (dir) =>
        void session_
          .open(resolve(dir), mainWindow)
          .then((opened) => {
            rebuildMenu();
            if (opened) mainWindow.webContents.reload(); // the page re-reads the new project's snapshot
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
      if (rendererUrl) await mainWindow.loadURL(rendererUrl);
      else await mainWindow.loadFile(join(__dirname, '../renderer/index.html'));
    })
    .catch((err: unknown) => {
      if (err instanceof InstanceLockedError) dialog.showErrorBox('Switchboard is already running', err.message);
      guard.fail(err);
    });

  app.on('window-all-closed', () => app.quit());

  app.on('before-quit', (event) => {
    if (isQuitting || !project?.handle) return;
    // Hold the quit until every process tree is gone: nothing may outlive the app.
    event.preventDefault();
    void guard.shutdown(0);
  });
}

async function confirmStop(win: BrowserWindow, running: string[]): Promise<boolean> {
  const { response } = await dialog.showMessageBox(win, {
    type: 'question',
    buttons: ['Stop them and open', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: `Opening another folder stops ${running.length === 1 ? 'a running process' : `${running.length} running processes`}`,
    detail: running.join(', '),
  });
  return response === 0;
}

if (process.versions.electron && !process.env.VITEST) startApp();
