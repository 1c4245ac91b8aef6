/**
 * Builds the core with every capability wired in. The Electron shell and `serve` both call this,
 * so they run exactly the same core.
 */
import { SwitchboardCore, type SwitchboardCoreOptions } from './switchboardCore';
import type { EntryDecorator } from './entryDecoration';
import { McpService } from '../mcp';
import { attachTimers, timerDecorator, type TimerManager } from '../timers';
import { ContinuityService, StateStore, type RestoreReport } from '../continuity';

export interface CreateCoreOptions {
  projectDir: string;
  /** Where the app keeps its own files (endpoint discovery, scratchpads, timers). */
  dataDir: string;
  killGraceMs?: number;
  watchConfig?: boolean;
  /** Loopback port of the MCP endpoint (default 0: a free port). */
  mcpPort?: number;
  /** Problems while restoring or saving the entries' state (a corrupt state file, a failed write). */
  onContinuityProblem?: (message: string) => void;
}

export interface CoreHandle {
  core: SwitchboardCore;
  /** The MCP endpoint (SPEC §5): its URL and the app token; `service` for tool-call events. */
  mcp: { url: string; token: string; service: McpService };
  /** The timer manager (SPEC §6); UI commands and MCP tools reach it through timersOf(core). */
  timers: TimerManager;
  continuity: ContinuityService;
  /** What came back from the previous app run. */
  restored: RestoreReport;
  dispose(): Promise<void>;
}

export async function createCore(options: CreateCoreOptions): Promise<CoreHandle> {
  const decorators: EntryDecorator[] = [];
  // --- timers (issue 6): the decorator reads the manager, which needs the core, so it goes in first ---
  let timers: TimerManager | undefined;
  decorators.push(timerDecorator(() => timers));
  // --- end timers ---
  const coreOptions: SwitchboardCoreOptions = {
    projectDir: options.projectDir,
    killGraceMs: options.killGraceMs,
    watchConfig: options.watchConfig,
    decorators,
  };
  // --- MCP (issue 5): endpoint up before init, so auto-started entries already get their identity ---
  let mcp: McpService | undefined;
  coreOptions.envForRun = (entry) => mcp?.envForRun(entry) ?? {};
  coreOptions.mcpEndpointFor = (entryId) => mcp?.endpointFor(entryId);
  const core = new SwitchboardCore(coreOptions);
  const timerManager = (timers = attachTimers(core, { dataDir: options.dataDir })); // timers (issue 6)
  try {
    mcp = await McpService.start({ core, dataDir: options.dataDir, port: options.mcpPort });
  } catch (err) {
    timerManager.dispose();
    await core.dispose();
    throw err;
  }
  core.setMcpInfo({ url: mcp.url, token: mcp.token });
  const mcpService = mcp;
  // --- end MCP ---
  const continuity = new ContinuityService(core, new StateStore(options.dataDir, options.projectDir), options.onContinuityProblem);
  let restored: RestoreReport;
  try {
    restored = await continuity.prepare();
    await core.init();
    await continuity.restoreRuntimeEntries(restored);
  } catch (err) {
    await continuity.shutdown();
    await mcpService.dispose();
    timerManager.dispose();
    await core.dispose();
    throw err;
  }
  // --- timers (issue 6): saved timers come back once the project's entries exist ---
  timerManager.restore();
  // --- end timers ---
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
    },
  };
}
