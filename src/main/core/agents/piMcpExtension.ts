/**
 * pi has no MCP client by design ("No MCP", its README: "build an extension that adds MCP
 * support"), so Switchboard brings its tools in the form pi documents for that: an extension,
 * loaded with `-e <path>`, whose async factory connects to Switchboard's MCP endpoint (Streamable
 * HTTP, JSON-RPC over POST, the run's token from the environment), lists its tools and registers
 * each with `pi.registerTool` as `switchboard_<tool>` (opencode's naming), its JSON Schema as the
 * parameters (pi validates plain JSON Schema). A call is a `tools/call`; an MCP error result is a
 * failed tool for the model. When the endpoint cannot be reached, pi starts without these tools
 * rather than failing: the extension must never stop the user's agent.
 */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_NAME, MCP_TOKEN_ENV } from '../../../shared/mcp';
import type { McpEndpoint } from './agentPreset';
import { ownedSettingsFile } from './ownedSettingsFile';

function extensionSource(mcpUrl: string): string {
  return `// Written by Switchboard: Switchboard's MCP tools for this pi session (pi has no MCP client).
const MCP_URL = ${JSON.stringify(mcpUrl)};

/** The JSON-RPC answer with \`id\` from a JSON body or a text/event-stream body. */
function answerIn(contentType, text, id) {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text);
  const messages = text
    .split('\\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)));
  const answer = messages.find((m) => m.id === id);
  if (!answer) throw new Error('no answer in the event stream');
  return answer;
}

function mcpClient(token) {
  let sessionId;
  let nextId = 1;
  return async function rpc(method, params, { notification = false } = {}) {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer ' + token,
    };
    if (sessionId) headers['mcp-session-id'] = sessionId;
    const id = notification ? undefined : nextId++;
    const res = await fetch(MCP_URL, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
    sessionId = res.headers.get('mcp-session-id') ?? sessionId;
    const text = await res.text();
    if (!res.ok) throw new Error('Switchboard MCP ' + method + ': HTTP ' + res.status + ' ' + text.slice(0, 200));
    if (notification) return undefined;
    const answer = answerIn(res.headers.get('content-type') ?? '', text, id);
    if (answer.error) throw new Error('Switchboard MCP ' + method + ': ' + answer.error.message);
    return answer.result;
  };
}

export default async function switchboardMcp(pi) {
  const token = process.env[${JSON.stringify(MCP_TOKEN_ENV)}];
  if (!token) return;
  const rpc = mcpClient(token);
  let tools;
  try {
    await rpc('initialize', {
      protocolVersion: ${JSON.stringify(LATEST_PROTOCOL_VERSION)},
      capabilities: {},
      clientInfo: { name: 'pi-switchboard-extension', version: '1' },
    });
    await rpc('notifications/initialized', undefined, { notification: true });
    tools = (await rpc('tools/list', {})).tools;
  } catch {
    return; // Switchboard is not reachable: pi runs without its tools.
  }
  for (const tool of tools) {
    pi.registerTool({
      name: ${JSON.stringify(MCP_SERVER_NAME)} + '_' + tool.name,
      label: tool.title ?? tool.name,
      description: tool.description ?? tool.name,
      parameters: tool.inputSchema ?? { type: 'object', properties: {} },
      async execute(_toolCallId, params) {
        const result = await rpc('tools/call', { name: tool.name, arguments: params ?? {} });
        const text = (result.content ?? [])
          .filter((part) => part.type === 'text')
          .map((part) => part.text)
          .join('\\n');
        if (result.isError) throw new Error(text || 'the Switchboard tool failed');
        return { content: [{ type: 'text', text }], details: {} };
      },
    });
  }
}
`;
}

/** The extension for one endpoint: a module path for pi's `-e` flag. */
export function piMcpExtension(endpoint: McpEndpoint): string {
  return ownedSettingsFile('pi-mcp-extension', extensionSource(endpoint.url), 'mjs');
}
