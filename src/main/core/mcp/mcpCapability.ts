/**
 * The MCP endpoint joins the core as a capability. It listens before the project's entries are
 * created, so an entry started at init already gets its identity (env) and its endpoint (an agent
 * CLI's MCP configuration); at shutdown it stops first, so no tool call arrives while the other
 * capabilities save and the process trees go down.
 */
import { DisposableStore, type Capability } from '../base';
import { MCP_CONNECTION, type SwitchboardCore } from '../app';
import { McpService } from './mcpService';
import { MCP_WIRING, mcpWiringDecorator } from './mcpWiringDecoration';

interface McpOptions {
  /** The app's data directory (scratchpads live under it). */
  dataDir: string;
  /** Loopback port (default 0: a free port). */
  port?: number;
}

/** The MCP capability of one core; `service` once the core is initialised (its URL, token and tool-call events). */
export interface McpCapability extends Capability<SwitchboardCore> {
  readonly service: McpService;
}

export function mcpCapability(options: McpOptions): McpCapability {
  let started: McpService | undefined;
  return {
    name: 'mcp',
    get service(): McpService {
      if (!started) throw new Error('The MCP endpoint is not listening yet (the core is not initialised).');
      return started;
    },
    attach(core) {
      const store = new DisposableStore();
      store.add(
        core.addEntryDecorator(
          MCP_WIRING,
          mcpWiringDecorator(() => started),
        ),
      );
      return {
        beforeInit: async () => {
          const service = await McpService.start({ core, dataDir: options.dataDir, port: options.port });
          started = service;
          store.add(core.services.provide(MCP_CONNECTION, { url: service.url, token: service.token }));
        },
        beforeShutdown: async () => started?.dispose(),
        dispose: () => {
          void started?.dispose();
          store.dispose();
        },
      };
    },
  };
}
