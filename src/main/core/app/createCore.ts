/**
 * Builds the core with every capability wired in. The Electron shell and `serve` both call this,
 * so they run exactly the same core.
 */
import { SwitchboardCore, type SwitchboardCoreOptions } from './switchboardCore';
import type { EntryDecorator } from './entryDecoration';
import { McpService } from '../mcp';

export interface CreateCoreOptions {
  projectDir: string;
  /** Where the app keeps its own files (endpoint discovery, scratchpads, timers). */
  dataDir: string;
  killGraceMs?: number;
  watchConfig?: boolean;
  /** Loopback port of the MCP endpoint (default 0: a free port). */
  mcpPort?: number;
}

export interface CoreHandle {
  core: SwitchboardCore;
  /** The MCP endpoint (SPEC §5): its URL and the app token; `service` for tool-call events. */
  mcp: { url: string; token: string; service: McpService };
  dispose(): Promise<void>;
}

export async function createCore(options: CreateCoreOptions): Promise<CoreHandle> {
  const decorators: EntryDecorator[] = [];
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
  try {
    mcp = await McpService.start({ core, dataDir: options.dataDir, port: options.mcpPort });
  } catch (err) {
    await core.dispose();
    throw err;
  }
  core.setMcpInfo({ url: mcp.url, token: mcp.token });
  const mcpService = mcp;
  // --- end MCP ---
  try {
    await core.init();
  } catch (err) {
    await mcpService.dispose();
    await core.dispose();
    throw err;
  }
  return {
    core,
    mcp: { url: mcpService.url, token: mcpService.token, service: mcpService },
    async dispose() {
      await mcpService.dispose(); // no new tool calls while the process trees go down
      await core.dispose();
    },
  };
}
