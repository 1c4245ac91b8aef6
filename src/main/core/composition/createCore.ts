/**
 * Builds the core with every capability wired in. The Electron shell and `serve` both call this,
 * so they run exactly the same core.
 */
import { SwitchboardCore } from '../app';
import type { Clock } from '../base';
import { mcpCapability, type McpService } from '../mcp';
import type { TimerManager } from '../timers';
import { continuityCapability, type RestoreReport } from '../continuity';
import { acquireInstanceLock } from '../instance';
import { FileTrustStore, ProjectTrust } from '../trust';
import { FileUiStateStore } from '../uistate';
import { projectKey } from './projectKey';
import { coreCapabilities } from './capabilities';
import { JsonPortStore, PortAllocator } from '../runtime';

interface CreateCoreOptions {
  projectDir: string;
  /** Where the app keeps its own files (endpoint discovery, scratchpads, timers). */
  dataDir: string;
  killGraceMs?: number;
  watchConfig?: boolean;
  /** Loopback port of the MCP endpoint (default 0: a free port). */
  mcpPort?: number;
  /** Problems while restoring or saving the entries' state (a corrupt state file, a failed write). */
  onContinuityProblem?: (message: string) => void;
  /**
   * Trust every entry of switchboard.json as it is at startup (`serve --trust`), stored like a
   * trust the UI grants. Later edits are asked about again.
   */
  grantTrust?: boolean;
  /** The clock worktree idle stop counts on (tests move it); real time by default. */
  clock?: Clock;
}

export interface CoreHandle {
  core: SwitchboardCore;
  /** The MCP endpoint (docs/mcp.md): its URL and the app token; `service` for tool-call events. */
  mcp: { url: string; token: string; service: McpService };
  /** The timer manager (docs/timers.md); UI commands and MCP tools reach it as `core.timers`. */
  timers: TimerManager;
  /** What came back from the previous app run. */
  restored: RestoreReport;
  /** Stop every process tree within its grace, then release everything (the lock last). */
  dispose(): Promise<void>;
  /** Synchronous last resort (second signal, fatal error): SIGKILL every tree, release the lock. */
  killNow(): void;
}

export async function createCore(options: CreateCoreOptions): Promise<CoreHandle> {
  // Throws InstanceLockedError (naming the holder's pid) before anything starts.
  const lock = acquireInstanceLock(options.dataDir, options.projectDir);
  try {
    return await createLockedCore(options, () => lock.release());
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function createLockedCore(options: CreateCoreOptions, releaseLock: () => void): Promise<CoreHandle> {
  const continuity = continuityCapability({ dataDir: options.dataDir, onProblem: options.onContinuityProblem });
  const mcp = mcpCapability({ dataDir: options.dataDir, port: options.mcpPort });
  const core = new SwitchboardCore({
    projectDir: options.projectDir,
    killGraceMs: options.killGraceMs,
    watchConfig: options.watchConfig,
    capabilities: coreCapabilities({
      continuity,
      timers: { dataDir: options.dataDir },
      sandbox: { dataDir: options.dataDir },
      mcp,
      worktrees: { dataDir: options.dataDir, projectKey: projectKey(options.projectDir), clock: options.clock },
      usage: { dataDir: options.dataDir, projectDir: options.projectDir },
    }),
    // Trust lives in the app's data directory, never in the project a clone or an agent can write.
    trust: new ProjectTrust(projectKey(options.projectDir), new FileTrustStore(options.dataDir)),
    // View state beside it: the desktop window and browsers on serve share one layout per project.
    uiState: FileUiStateStore.forProject(options.dataDir, projectKey(options.projectDir)),
    // `${port}` ports stay the same across restarts while they are free.
    ports: new PortAllocator({
      store: JsonPortStore.forProject(options.dataDir, projectKey(options.projectDir)),
      seed: projectKey(options.projectDir),
    }),
  });
  try {
    await core.init();
    if (options.grantTrust) await core.grantTrust();
  } catch (err) {
    await core.dispose();
    throw err;
  }
  const service = mcp.service;
  return {
    core,
    mcp: { url: service.url, token: service.token, service },
    timers: core.timers,
    restored: continuity.restored,
    // The capabilities stop in the order capabilities.ts gives, then the process trees go down.
    async dispose() {
      try {
        await core.dispose();
      } finally {
        releaseLock();
      }
    },
    killNow() {
      core.killAllNow();
      releaseLock();
    },
  };
}
