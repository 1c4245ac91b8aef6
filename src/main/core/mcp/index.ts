/** The MCP capability's public surface (docs/mcp.md). */
export { McpService, CORE_TOOLS } from './mcpService';
export { mcpCapability, type McpCapability } from './mcpCapability';
export { MAX_BODY_BYTES } from './httpEndpoint';
export { writeEndpointFile, removeEndpointFile, readEndpointFile } from './discovery';
export type { AnyToolDefinition } from './toolContext';
export type { ToolCallRecord } from './sessionServer';
