/** Installs the application menu (built by menuTemplate.ts) and carries out its actions. */
import { join } from 'node:path';
import { app, clipboard, Menu, shell, type BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNEL, type ControlEvent } from '../../shared/api';
import { connectCommands } from '../../shared/mcp';
import type { UiCommand } from '../../shared/uiCommand';
import { buildMenuTemplate, type RecentProject } from './menuTemplate';

/** The docs shipped with the app: `docs/` beside the app in development, in the resources when packaged. */
function docsDir(): string {
  return app.isPackaged ? join(process.resourcesPath, 'docs') : join(app.getAppPath(), 'docs');
}

interface AppMenuOptions {
  window(): BrowserWindow | undefined;
  recentProjects(): RecentProject[];
  hasOpenProject(): boolean;
  openProject(dir: string): void;
  /** The native folder dialog; the chosen folder opens beside the others. */
  chooseFolder(): void;
  closeProject(): void;
  mcp(): { url: string; token: string } | undefined;
  isDevelopment: boolean;
}

/** Builds the menu now; call the returned function again when recent projects change. */
export function installAppMenu(options: AppMenuOptions): () => void {
  const sendToWindow = (command: UiCommand) => {
    const win = options.window();
    if (!win || win.isDestroyed()) return;
    const event: ControlEvent = { type: 'uiCommand', command };
    win.webContents.send(IPC_EVENT_CHANNEL, event);
  };
  const rebuild = () => {
    const template = buildMenuTemplate(
      {
        platform: process.platform,
        appName: app.getName(),
        isDevelopment: options.isDevelopment,
        hasOpenProject: options.hasOpenProject(),
        recentProjects: options.recentProjects(),
      },
      {
        openFolder: () => options.chooseFolder(),
        openRecent: (dir) => options.openProject(dir),
        closeProject: () => options.closeProject(),
        // Settings live in switchboard.json for now; the sidebar shows where.
        showSettings: () => sendToWindow('toggleSidebar'),
        sendToWindow,
        copyMcpConnectLine: () => {
          const mcp = options.mcp();
          if (mcp) void clipboard.writeText(connectCommands(mcp.url, mcp.token).claude);
        },
        openDocs: () => void shell.openPath(docsDir()),
      },
    );
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  rebuild();
  return rebuild;
}
