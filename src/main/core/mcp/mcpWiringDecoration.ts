/**
 * Every run of an entry gets its MCP identity (env: where to call, a token for this run); an agent
 * run also gets its CLI's own MCP configuration (arguments and env), so the CLI reaches Switchboard
 * with its entry's token. Nothing before the endpoint listens.
 */
import { serviceKey, type Event } from '../base';
import { presetOf } from '../agents';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry } from '../sessions';
import type { McpService } from './mcpService';

const noChange: Event<void> = () => ({ dispose: () => undefined });

class McpWiringDecoration implements EntryDecoration {
  readonly onDidChange = noChange;

  constructor(
    private readonly entry: ProcessEntry,
    private readonly service: () => McpService | undefined,
  ) {}

  describe() {
    return {};
  }

  envForRun(): Record<string, string> {
    const service = this.service();
    return service ? { ...service.envForRun(this.entry), ...this.agentWiring(service).env } : {};
  }

  argsForRun(): string[] {
    const service = this.service();
    return service ? this.agentWiring(service).args : [];
  }

  dispose(): void {}

  private agentWiring(service: McpService): { args: string[]; env: Record<string, string> } {
    const endpoint = this.entry.kind === 'agent' ? service.endpointFor(this.entry.id) : undefined;
    if (!endpoint) return { args: [], env: {} };
    return presetOf(this.entry).mcpWiring(endpoint, { ...process.env, ...this.entry.definition.env }, this.entry.definition.cwd);
  }
}

export const MCP_WIRING: DecorationKey<EntryDecoration> = serviceKey('mcp wiring');

/** `service` is the endpoint once it listens (undefined before). */
export function mcpWiringDecorator(service: () => McpService | undefined): EntryDecorator {
  return (entry) => new McpWiringDecoration(entry, service);
}
