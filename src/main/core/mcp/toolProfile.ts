/**
 * What tools/list shows a session (docs/mcp.md "Tool profiles"). The "agent" profile is every
 * connected agent's context cost: the tools its token may call, each with its one-line summary
 * and its schema's structure only (types, enums, required), because help({topic}) answers the
 * detail on demand. The "full" profile is the SDK's own list of every tool, prose included.
 * Calls never depend on the profile: every tool is registered with its whole schema either way.
 */
import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_PROFILES, McpToolInput, type McpToolName, type McpToolProfile } from '../../../shared/mcp';
import { SwitchboardError } from '../../../shared/errors';
import type { Caller } from './identity';
import { mayCall, type AnyToolDefinition, type ToolContext } from './toolContext';

/** A person's client sees everything; a process Switchboard started gets the lean list unless it asks. */
export function defaultProfile(caller: Caller): McpToolProfile {
  return caller.kind === 'process' ? 'agent' : 'full';
}

/** The profile a client asked for (header or query value), or a clear error naming the choices. */
export function parseProfile(value: string | undefined): McpToolProfile | undefined {
  if (value === undefined) return undefined;
  const profile = MCP_TOOL_PROFILES.find((p) => p === value.trim().toLowerCase());
  if (!profile) {
    throw new SwitchboardError('invalid_argument', `Unknown tool profile "${value.slice(0, 40)}": use ${MCP_TOOL_PROFILES.join(' or ')}`);
  }
  return profile;
}

/** The "agent" profile's tools/list for this caller, computed per request so scope changes show at once. */
export function agentToolList(ctx: ToolContext, caller: Caller): Tool[] {
  return ctx.tools.filter((tool) => mayCall(ctx, caller, tool)).map(leanTool);
}

const leanTools = new WeakMap<AnyToolDefinition, Tool>();

function leanTool(tool: AnyToolDefinition): Tool {
  let lean = leanTools.get(tool);
  if (!lean) {
    const shape: z.ZodRawShape = tool.inputShape ?? McpToolInput[tool.name as McpToolName];
    const inputSchema = structureOf(z.toJSONSchema(z.strictObject(shape), { target: 'draft-7', io: 'input' })) as Tool['inputSchema'];
    lean = {
      name: tool.name as string,
      description: tool.summary,
      inputSchema,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    };
    leanTools.set(tool, lean);
  }
  return lean;
}

type JsonSchema = Record<string, unknown>;

/**
 * A schema's structure: a tool's arguments with their types, enums and which are required; an
 * argument that is itself an object (spawn_process ready, env) is just "object". Prose, bounds and
 * regexes go: the call still checks them and its error names the argument.
 */
function structureOf(schema: JsonSchema): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, argumentStructure(property)])),
    ...(Array.isArray(schema.required) && schema.required.length ? { required: schema.required } : {}),
  };
}

function argumentStructure(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return { anyOf: (schema.anyOf as JsonSchema[]).map(argumentStructure) };
  if (schema.enum !== undefined) return { type: schema.type, enum: schema.enum };
  if (schema.const !== undefined) return { const: schema.const };
  if (schema.type === 'array' && schema.items) return { type: 'array', items: argumentStructure(schema.items as JsonSchema) };
  return { type: schema.type };
}
