/**
 * The McpServer of one MCP session: every tool registered against its zod schema from
 * src/shared/mcp.ts. A tool's typed failure becomes an `isError` result carrying its message (and
 * its code and details in structuredContent); successful results are objects, sent both as
 * structuredContent and as JSON text for clients that only read content.
 */
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { McpToolInput, type McpToolName } from '../../../shared/mcp';
import { SwitchboardError } from '../../../shared/errors';
import type { SessionContext } from './httpEndpoint';
import type { Caller } from './identity';
import { agentToolList } from './toolProfile';
import { assertMayRun, type AnyToolDefinition, type ToolCall, type ToolContext } from './toolContext';
import { withResolvedProcessId } from './callerWorktree';

const SERVER_INFO = { name: 'switchboard', title: 'Switchboard', version: '0.1.0' };
/** Bound on array elements + object members in one call's arguments (the body cap bounds bytes). */
const MAX_TOOL_INPUT_ELEMENTS = 10_000;

/**
 * Strict objects: an argument the tool does not know (a typo such as "timeout" for
 * "timeout_seconds") is an error the agent sees, not silently ignored. Built once, shared by all
 * sessions.
 */
const INPUT_SCHEMAS = Object.fromEntries(Object.entries(McpToolInput).map(([name, shape]) => [name, z.strictObject(shape)])) as Record<
  McpToolName,
  z.ZodObject
>;

const INSTRUCTIONS = [
  "Switchboard supervises this project's dev servers, terminals and coding agents.",
  'Call get_project_status (or list_processes) first to learn process ids; whoami tells who you are.',
  'Prefer restart_process (waits until ready) and wait_for_pattern over polling; read screens with get_process_output.',
  'Coordinate with other agents via send_message and scratchpad_* (write with expected_revision).',
  'Descriptions may be one line: help({topic}) explains any tool or subject.',
].join(' ');

export interface ToolCallRecord {
  tool: string;
  caller: Caller;
  sessionId: string;
  isError: boolean;
  /** The error text for isError results. */
  error?: string;
  durationMs: number;
  at: number;
}

export function createSessionServer(ctx: ToolContext, session: SessionContext, onCalled: (record: ToolCallRecord) => void): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
  });
  for (const tool of ctx.tools) registerTool(server, ctx, tool, session, onCalled);
  // After the SDK installed its own tools/list handler (which stays the "full" profile's).
  if (session.profile === 'agent')
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: agentToolList(ctx, session.caller) }));
  return server;
}

function registerTool(
  server: McpServer,
  ctx: ToolContext,
  tool: AnyToolDefinition,
  session: SessionContext,
  onCalled: (record: ToolCallRecord) => void,
): void {
  const inputSchema = tool.inputShape ? z.strictObject(tool.inputShape) : INPUT_SCHEMAS[tool.name as McpToolName];
  const config = { title: tool.title, description: tool.description, inputSchema, annotations: tool.annotations };
  server.registerTool(tool.name as string, config, async (args: unknown, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
    const at = Date.now();
    const progressToken = extra._meta?.progressToken;
    const call: ToolCall = {
      caller: session.caller,
      clientName: server.server.getClientVersion()?.name,
      signal: extra.signal,
      hasProgress: progressToken !== undefined,
      progress: (progress, total, message) => {
        if (progressToken === undefined || extra.signal.aborted) return;
        void extra
          .sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
          .catch(() => undefined); // the stream may be gone; the final result still tells the story
      },
    };
    let result: CallToolResult;
    try {
      // `web` from inside feature-a is feature-a's web (docs/runtime.md).
      const resolved = withResolvedProcessId(ctx, call, (args ?? {}) as { process_id?: unknown }, tool.startsByName === true);
      assertMayRun(ctx, call, tool, resolved);
      result = toResult(await tool.run(resolved, call, ctx));
    } catch (err) {
      result = toErrorResult(err);
    }
    onCalled({
      tool: tool.name as string,
      caller: session.caller,
      sessionId: session.sessionId,
      isError: result.isError === true,
      ...(result.isError ? { error: (result.content[0] as { text?: string }).text } : {}),
      durationMs: Date.now() - at,
      at,
    });
    return result;
  });
}

function toResult(value: object): CallToolResult {
  // One serialization: the text block carries the JSON, and JSON.stringify drops undefined fields
  // of structuredContent on the wire too. Tools return plain objects (never arrays or classes).
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

function toErrorResult(err: unknown): CallToolResult {
  if (err instanceof SwitchboardError) {
    return {
      isError: true,
      content: [{ type: 'text', text: err.message }],
      structuredContent: { error: { code: err.code, message: err.message, ...(err.details ?? {}) } },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { error: { code: 'internal', message } } };
}
