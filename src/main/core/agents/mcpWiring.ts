/**
 * ───────────────────────────────────────────────────────────────────────────────────────────────
 * MCP WIRING HOOK — to be filled in by the MCP engineer (SPEC §5 "Agent presets wire the endpoint
 * into the agent CLI's own MCP configuration").
 *
 * Each function returns the extra argv and env that make one agent CLI connect to Switchboard's
 * MCP endpoint with the entry's own token, e.g.
 *   claude:   ['--mcp-config', '<json with {"mcpServers":{"switchboard":{"type":"http","url",…,"headers":{"Authorization":"Bearer …"}}}}>']
 *             plus '--settings' with the hook commands that report to the StatusTracker
 *   codex:    ['-c', 'mcp_servers.switchboard.url="…"', …]
 *   opencode: env OPENCODE_CONFIG_CONTENT (or a config file) naming the server
 * Until then every preset adds nothing; agents still run, without the MCP tools.
 * ───────────────────────────────────────────────────────────────────────────────────────────────
 */
import type { McpEndpoint, McpWiring } from './agentPreset';

const NONE = (): McpWiring => ({ args: [], env: {} });

export const MCP_WIRING: Readonly<Record<string, (endpoint: McpEndpoint) => McpWiring>> = {
  claude: NONE, // TODO(mcp): --mcp-config + --settings hooks
  codex: NONE, // TODO(mcp): -c mcp_servers.switchboard.*
  gemini: NONE, // TODO(mcp): settings.json mcpServers via env/config dir
  opencode: NONE, // TODO(mcp): opencode config env
  aider: NONE, // aider has no MCP client
  'cursor-agent': NONE, // TODO(mcp): .cursor/mcp.json
  generic: NONE,
};

export function mcpWiringFor(presetId: string): (endpoint: McpEndpoint) => McpWiring {
  return MCP_WIRING[presetId] ?? NONE;
}
