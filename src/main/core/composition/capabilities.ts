/**
 * The one list of capabilities the core is built with. Order matters: later decorations override
 * fields of earlier ones in describe(). To add a capability, give it an `attach(core)` in its own
 * folder (docs/architecture.md) and list it here.
 */
import {
  SwitchboardCore,
  agentSessionDecorator,
  agentStatusDecorator,
  autoRestartDecorator,
  entryDecoratorCapability,
  readinessDecorator,
  type Capability,
  type SwitchboardCoreOptions,
} from '../app';
import { taskCapability } from '../tasks';
import { timerCapability, type CreateTimerManagerOptions } from '../timers';

interface CapabilityOptions {
  /** Build the core with timers (the app always does; a core for a test without them answers timer commands with an error). */
  timers?: CreateTimerManagerOptions;
}

export function coreCapabilities(options: CapabilityOptions = {}): Capability[] {
  return [
    entryDecoratorCapability('readiness', readinessDecorator),
    entryDecoratorCapability('auto-restart', autoRestartDecorator),
    entryDecoratorCapability('agent status', agentStatusDecorator),
    entryDecoratorCapability('agent session', agentSessionDecorator),
    taskCapability,
    ...(options.timers ? [timerCapability(options.timers)] : []),
  ];
}

/** A core with the standard capabilities (timers only when asked), for embedders and tests that need no MCP endpoint. */
export function buildCore(
  options: Omit<SwitchboardCoreOptions, 'capabilities'>,
  capabilityOptions: CapabilityOptions = {},
): SwitchboardCore {
  return new SwitchboardCore({ ...options, capabilities: coreCapabilities(capabilityOptions) });
}
