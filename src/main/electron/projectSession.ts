/**
 * The project the window shows: its core, its MCP discovery file, and the window's bridge to it.
 * Opening another folder replaces it in place (after asking when processes are running), so the
 * window, the menu and the dock stay while the grid changes.
 */
import type { BrowserWindow } from 'electron';
import { createCore, type CoreHandle } from '../core/composition';
import { removeEndpointFile, writeEndpointFile } from '../core/mcp';
import type { RecentProjects } from '../core/projects';
import { installIpcBridge } from './ipcBridge';
import { installAttention } from './attention';

export interface ProjectSessionOptions {
  dataDir: string;
  recent: RecentProjects;
  isTrustedUrl: (url: string) => boolean;
  /** Asks the person whether stopping `running` processes is fine; true to go on. */
  confirmStop: (running: string[]) => Promise<boolean>;
  /** Trust the first project's switchboard.json as it is (`--trust` on the command line). */
  grantTrustAtLaunch?: boolean;
}

export class ProjectSession {
  private current: CoreHandle | undefined;
  private detach: Array<() => void> = [];
  private hasOpened = false;

  constructor(private readonly options: ProjectSessionOptions) {}

  get handle(): CoreHandle | undefined {
    return this.current;
  }

  /** Opens `dir` in `win`; false when the person chose to keep the current project. */
  async open(dir: string, win: BrowserWindow): Promise<boolean> {
    if (this.current?.core.projectDir === dir) return true;
    if (!(await this.close())) return false;
    const isLaunchProject = this.current === undefined && !this.hasOpened;
    this.hasOpened = true;
    const handle = await createCore({
      projectDir: dir,
      dataDir: this.options.dataDir,
      grantTrust: isLaunchProject && this.options.grantTrustAtLaunch === true,
    });
    this.current = handle;
    writeEndpointFile(this.options.dataDir, { url: handle.mcp.url, token: handle.mcp.token, pid: process.pid });
    this.detach = [
      installIpcBridge(handle.core, win, this.options.isTrustedUrl),
      installAttention(handle.core, win),
      () => removeEndpointFile(this.options.dataDir),
    ];
    this.options.recent.touch(dir);
    return true;
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
    for (const detach of this.detach.splice(0)) detach();
    this.current?.killNow();
  }

  /** Ends the project without asking (quit). */
  async dispose(): Promise<void> {
    const handle = this.current;
    this.current = undefined;
    for (const detach of this.detach.splice(0)) detach();
    await handle?.dispose();
  }
}
