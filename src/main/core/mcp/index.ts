/** The MCP capability's public surface (docs/mcp.md). */
export { McpService, CORE_TOOLS, HOOKS_URL_ENV, hookEventOf, type McpServiceOptions } from './mcpService';
export { McpHttpEndpoint, MAX_BODY_BYTES, HOOKS_PATH, type SessionContext } from './httpEndpoint';
export { IdentityRegistry, callerKey, type Caller } from './identity';
export { writeEndpointFile, removeEndpointFile, readEndpointFile, endpointFilePath } from './discovery';
export { keySequence } from './terminalInput';
export type { AnyToolDefinition, ToolContext, ToolCall } from './toolContext';
export { defineTool } from './toolContext';
export type { ToolCallRecord } from './sessionServer';
