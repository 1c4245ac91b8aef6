/**
 * A sandbox backend wraps one run's command line: the program and everything it starts run inside.
 * Linux: bubblewrap (`bwrapBackend.ts`); macOS: a Seatbelt profile (`seatbeltProfile.ts`); a
 * container backend would implement the same interface (docs/sandbox.md).
 */
import type { SandboxMounts } from './sandboxMounts';

/** A loopback port inside the sandbox relayed to a Unix socket the host listens on. */
export interface InboundRelay {
  port: number;
  socket: string;
}

/** The host socket a sandbox keeps a spare connection open to (ports forwarded out), and the script each spare runs. */
export interface SpareLink {
  socket: string;
  script: string;
}

export interface SandboxRunPlan {
  mounts: SandboxMounts;
  /** The host folder holding the relays' sockets (shown read-only inside at the same path). */
  socketDir: string;
  relays: InboundRelay[];
  /** Servers inside reachable from the host: the first spare is opened before the program starts. */
  spareLink?: SpareLink;
  /** Hidden by default besides the home folder (Switchboard's own data folder). */
  alwaysHidden: string[];
  cwd: string;
  memoryMb?: number;
  maxProcesses?: number;
}

export interface SandboxBackend {
  readonly name: string;
  /** Why no sandbox can be made here (one line with the fix), or undefined when it can. */
  unavailableReason(env: Readonly<Record<string, string>>): string | undefined;
  /** The argv that runs `argv` inside the sandbox `plan` describes. */
  wrap(plan: SandboxRunPlan, argv: readonly string[], env: Readonly<Record<string, string>>): string[];
}

/** Thrown when a sandboxed entry cannot start: its message is the line the entry shows. */
export class SandboxUnavailableError extends Error {}

/** Where no backend exists: every sandboxed entry refuses to start, saying so. */
export function unsupportedBackend(platform: string): SandboxBackend {
  return {
    name: 'none',
    unavailableReason: () =>
      platform === 'darwin'
        ? 'Sandbox unavailable on macOS yet: its Seatbelt profile is generated but not yet verified on a Mac. Remove "sandbox" to run it unsandboxed'
        : `Sandbox unavailable on ${platform}: only Linux (bubblewrap) is supported. Remove "sandbox" to run it unsandboxed`,
    wrap: () => {
      throw new SandboxUnavailableError(`Sandbox unavailable on ${platform}`);
    },
  };
}
