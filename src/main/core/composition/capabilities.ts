/**
 * The one list of capabilities the core is built with. Order matters, and it is the order of every
 * step (docs/architecture.md): later decorations override fields of earlier ones in describe();
 * `beforeInit` and `afterInit` run in list order (continuity restores the runtime entries before
 * timers look for their owners); `beforeShutdown` runs in reverse (MCP stops taking tool calls,
 * then timers save while their owners run, then continuity saves the entries). To add a
 * capability, give it an `attach(core)` in its own folder and list it here.
 */
import type { Capability } from '../base';
import { SwitchboardCore, entryDecoratorCapability, type SwitchboardCoreOptions } from '../app';
import { blockedCapability } from '../blocked';
import {
  AGENT_SESSION,
  AGENT_STATUS,
  QWEN_RETRY_TELEMETRY,
  agentSessionDecorator,
  agentStatusDecorator,
  qwenRetryTelemetryDecorator,
} from '../agents';
import type { ContinuityCapability } from '../continuity';
import type { McpCapability } from '../mcp';
import { READINESS, readinessDecorator } from '../ready';
import { AUTO_RESTART, autoRestartDecorator } from '../restart';
import { taskCapability } from '../tasks';
import { timerCapability, type CreateTimerManagerOptions } from '../timers';
import { worktreeCapability, type WorktreeCapabilityOptions } from '../worktrees';
import { idleStopCapability } from '../runtime';
import { sandboxCapability, type SandboxCapabilityOptions } from '../sandbox';
import { usageCapability, type UsageCapabilityOptions } from '../usage';
import { budgetCapability } from '../budget';

interface CapabilityOptions {
  /** Continuity across restarts (the app always has it; a core for a test without it keeps nothing). */
  continuity?: ContinuityCapability;
  /** Build the core with timers (the app always does; a core for a test without them answers timer commands with an error). */
  timers?: CreateTimerManagerOptions;
  /** The MCP endpoint (the app always has it; a core for a test without it has no endpoint). */
  mcp?: McpCapability;
  /** Git worktrees per agent (the app always has them; a core for a test without them answers worktree commands with an error). */
  worktrees?: WorktreeCapabilityOptions;
  /** How sandboxed entries are wrapped (every core has it; options name the data folder to hide). */
  sandbox?: SandboxCapabilityOptions;
  /** Where usage history is kept (the app always keeps it; a core for a test without it keeps totals in memory). */
  usage?: UsageCapabilityOptions;
}

export function coreCapabilities(options: CapabilityOptions = {}): Capability<SwitchboardCore>[] {
  return [
    entryDecoratorCapability('readiness', READINESS, readinessDecorator),
    entryDecoratorCapability('auto-restart', AUTO_RESTART, autoRestartDecorator),
    entryDecoratorCapability('agent status', AGENT_STATUS, agentStatusDecorator),
    entryDecoratorCapability('agent session', AGENT_SESSION, agentSessionDecorator),
    // After the agent status: it reads the tracker.
    entryDecoratorCapability('qwen retry telemetry', QWEN_RETRY_TELEMETRY, qwenRetryTelemetryDecorator),
    // After the agent status and session: it follows the status and reads the session's file.
    usageCapability(options.usage),
    // After usage (it counts its gains), before the timers and blocked agents (it gates their deliveries).
    budgetCapability(),
    taskCapability,
    // Before continuity: entries that come back into a worktree find it known.
    ...(options.worktrees ? [worktreeCapability(options.worktrees), idleStopCapability({ clock: options.worktrees.clock })] : []),
    ...(options.continuity ? [options.continuity] : []),
    ...(options.timers ? [timerCapability(options.timers)] : []),
    // After the timers: a continue at reset is one of them.
    blockedCapability(),
    ...(options.mcp ? [options.mcp] : []),
    // Last: it wraps each run after every other decoration added its env and arguments.
    sandboxCapability(options.sandbox),
  ];
}

/** A core with the standard capabilities (timers only when asked), for embedders and tests that need no MCP endpoint. */
export function buildCore(
  options: Omit<SwitchboardCoreOptions, 'capabilities'>,
  capabilityOptions: Omit<CapabilityOptions, 'continuity' | 'mcp'> = {},
): SwitchboardCore {
  return new SwitchboardCore({ ...options, capabilities: coreCapabilities(capabilityOptions) });
}
