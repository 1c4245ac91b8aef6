/**
 * The project the app has open: its core, its MCP discovery file, notifications and the tray,
 * which live as long as the project (closing the window is not quitting), and the bridge to the
 * window while one is open. Opening another folder replaces the project in place (after asking
 * when processes are running), so the window, the menu and the dock stay while the grid changes.
 */
import type { BrowserWindow } from 'electron';
import { createCore, type CoreHandle } from '../core/composition';
import { readEndpointFile, removeEndpointFile, writeEndpointFile } from '../core/mcp';
import type { RecentProjects } from '../core/projects';
import { isProcessAlive } from '../core/sessions';
import { installIpcBridge } from './ipcBridge';
import { installAttention } from './attention';
import { installTray } from './tray';

export interface ProjectSessionOptions {
  dataDir: string;
  recent: RecentProjects;
  isTrustedUrl: (url: string) => boolean;
  /** Asks the person whether stopping `running` processes is fine; true to go on. */
  confirmStop: (running: string[]) => Promise<boolean>;
  /** Shows (or reopens) the window: notification clicks and the tray use it. */
  showWindow: () => void;
  quit: () => void;
  /** Trust the first project's switchboard.json as it is (`--trust` on the command line). */
  grantTrustAtLaunch?: boolean;
  /** Problems while restoring or saving the entries' state. */
  log: (line: string) => void;
}

export class ProjectSession {
  private current: CoreHandle | undefined;
  private detach: Array<() => void> = [];
  private detachWindow: (() => void) | undefined;
  private window: BrowserWindow | undefined;
  private hasOpened = false;

  constructor(private readonly options: ProjectSessionOptions) {}

  get handle(): CoreHandle | undefined {
    return this.current;
  }

  /** Opens `dir`; false when the person chose to keep the current project. */
  async open(dir: string): Promise<boolean> {
    if (this.current?.core.projectDir === dir) return true;
    if (!(await this.close())) return false;
    const { dataDir } = this.options;
    // A previous instance that crashed left its discovery file naming a dead endpoint.
    const stale = readEndpointFile(dataDir);
    if (stale && stale.pid !== process.pid && !isProcessAlive(stale.pid)) removeEndpointFile(dataDir, stale.pid);
    const isLaunchProject = !this.hasOpened;
    this.hasOpened = true;
    const handle = await createCore({
      projectDir: dir,
      dataDir,
      grantTrust: isLaunchProject && this.options.grantTrustAtLaunch === true,
      onContinuityProblem: (message) => this.options.log(`switchboard: ${message}`),
    });
    this.current = handle;
    writeEndpointFile(dataDir, { url: handle.mcp.url, token: handle.mcp.token, pid: process.pid });
    this.detach = [installAttention(handle.core, this.options.showWindow), () => removeEndpointFile(dataDir)];
    if (process.platform !== 'darwin')
      this.detach.push(installTray(handle.core, { open: this.options.showWindow, quit: this.options.quit }));
    if (this.window) this.attachWindow(this.window);
    this.options.recent.touch(dir);
    return true;
  }

  /** Serves the project to `win` until the window closes or the project changes. */
  attachWindow(win: BrowserWindow): void {
    this.detachWindow?.();
    this.window = win;
    if (!this.current) return;
    const uninstall = installIpcBridge(this.current.core, win, this.options.isTrustedUrl);
    const onClosed = () => {
      uninstall();
      if (this.window === win) this.window = undefined;
      this.detachWindow = undefined;
    };
    win.once('closed', onClosed);
    this.detachWindow = () => {
      win.removeListener('closed', onClosed);
      uninstall();
    };
  }

  /** Stops the project's process trees (after asking if any run); false when the person declined. */
  async close(): Promise<boolean> {
    const handle = this.current;
    if (!handle) return true;
    const running = handle.core
      .listProcesses()
      .filter((p) => p.pid !== undefined && p.pid > 0)
      .map((p) => p.name);
    if (running.length > 0 && !(await this.options.confirmStop(running))) return false;
    await this.dispose();
    return true;
  }

  /** Fatal path: SIGKILL every process tree at once, synchronously. */
  killNow(): void {
    this.release();
    this.current?.killNow();
  }

  /** Ends the project without asking (quit). */
  async dispose(): Promise<void> {
    const handle = this.current;
    this.release();
    this.current = undefined;
    await handle?.dispose();
  }

  private release(): void {
    this.detachWindow?.();
    this.detachWindow = undefined;
    for (const detach of this.detach.splice(0)) detach();
  }
}
