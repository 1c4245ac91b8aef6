/**
 * Builds the core with every capability wired in. The Electron shell and `serve` both call this,
 * so they run exactly the same core.
 */
import { SwitchboardCore, type SwitchboardCoreOptions } from '../app';
import { McpService } from '../mcp';
import type { TimerManager } from '../timers';
import { ContinuityService, StateStore, type RestoreReport } from '../continuity';
import { acquireInstanceLock } from '../instance';
import { FileTrustStore, ProjectTrust } from '../trust';
import { FileUiStateStore } from '../uistate';
import { projectKey } from './projectKey';
import { coreCapabilities } from './capabilities';

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
}

export interface CoreHandle {
  core: SwitchboardCore;
  /** The MCP endpoint (docs/mcp.md): its URL and the app token; `service` for tool-call events. */
  mcp: { url: string; token: string; service: McpService };
  /** The timer manager (docs/timers.md); UI commands and MCP tools reach it as `core.timers`. */
  timers: TimerManager;
  continuity: ContinuityService;
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
  const coreOptions: SwitchboardCoreOptions = {
    projectDir: options.projectDir,
    killGraceMs: options.killGraceMs,
    watchConfig: options.watchConfig,
    capabilities: coreCapabilities({ timers: { dataDir: options.dataDir } }),
    // Trust lives in the app's data directory, never in the project a clone or an agent can write.
    trust: new ProjectTrust(projectKey(options.projectDir), new FileTrustStore(options.dataDir)),
    // View state beside it: the desktop window and browsers on serve share one layout per project.
    uiState: FileUiStateStore.forProject(options.dataDir, projectKey(options.projectDir)),
  };
  // MCP: endpoint up before init, so auto-started entries already get their identity
  let mcp: McpService | undefined;
  coreOptions.envForRun = (entry) => mcp?.envForRun(entry) ?? {};
  coreOptions.mcpEndpointFor = (entryId) => mcp?.endpointFor(entryId);
  const core = new SwitchboardCore(coreOptions);
  const timerManager = core.timers;
  try {
    mcp = await McpService.start({ core, dataDir: options.dataDir, port: options.mcpPort });
  } catch (err) {
    timerManager.dispose();
    await core.dispose();
    throw err;
  }
  core.setMcpInfo({ url: mcp.url, token: mcp.token });
  const mcpService = mcp;
  const continuity = new ContinuityService(core, new StateStore(options.dataDir, options.projectDir), options.onContinuityProblem);
  let restored: RestoreReport;
  try {
    restored = await continuity.prepare();
    await core.init();
    await continuity.restoreRuntimeEntries(restored);
    if (options.grantTrust) await core.grantTrust();
  } catch (err) {
    await continuity.shutdown();
    await mcpService.dispose();
    timerManager.dispose();
    await core.dispose();
    throw err;
  }
  // Timers: saved timers come back once the project's entries exist
  timerManager.restore();
  return {
    core,
    mcp: { url: mcpService.url, token: mcpService.token, service: mcpService },
    timers: timerManager,
    continuity,
    restored,
    async dispose() {
      await mcpService.dispose(); // no new tool calls while the process trees go down
      timerManager.dispose(); // saves remaining times while the owners still run (their exit would drop timers)
      await continuity.shutdown(); // saves what runs before the trees go down (their exits are not "stopped by the user")
      await core.dispose();
      releaseLock();
    },
    killNow() {
      core.killAllNow();
      releaseLock();
    },
  };
}
