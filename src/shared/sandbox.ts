/**
 * The `sandbox` setting of an entry (docs/sandbox.md): `true` for the defaults, or an object that
 * widens them. The whole process tree runs inside; what it may reach is listed here and nowhere else.
 */
import { z } from 'zod';

/** `host`, `*.domain`, `host:port`, `[v6]:port`: a port limits the entry to that port. */
const NETWORK_TARGET = /^(\*\.)?([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

const SandboxPathSchema = z.string().min(1, 'a path must not be empty');

export const SandboxNetworkTargetSchema = z
  .string()
  .regex(NETWORK_TARGET, 'must be "host" or "host:port" (e.g. "registry.npmjs.org", "127.0.0.1:4873")')
  .refine((target) => portOf(target) === undefined || (portOf(target)! >= 1 && portOf(target)! <= 65_535), 'port must be 1–65535');

const SandboxOptionsSchema = z.strictObject({
  fs: z
    .strictObject({
      /** Extra folders or files read-write (absolute, `~/…`, or relative to the project root). */
      rw: z.array(SandboxPathSchema).optional(),
      /** Extra folders or files read-only (the home folder is hidden by default). */
      ro: z.array(SandboxPathSchema).optional(),
      /** Hidden even where the defaults would show them (outside the home folder, system folders are read-only and visible). */
      hidden: z.array(SandboxPathSchema).optional(),
    })
    .optional(),
  network: z
    .strictObject({
      /** Hosts the egress proxy lets through; nothing else leaves the sandbox. */
      allow: z.array(SandboxNetworkTargetSchema).optional(),
    })
    .optional(),
  /** Address-space limit per process (MB; at least 256). */
  memoryMb: z.number().int('must be a whole number of MB').min(256, 'must be at least 256').optional(),
  /** Processes (and threads) the sandbox's user may have at once (at least 16). */
  maxProcesses: z.number().int('must be a whole number').min(16, 'must be at least 16').optional(),
});
export type SandboxOptions = z.infer<typeof SandboxOptionsSchema>;

/** switchboard.json / tool argument: `true` (defaults), `false` (none), or the options. */
export const SandboxConfigSchema = z.union([z.boolean(), SandboxOptionsSchema]);
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

/** The options a run is sandboxed with, or undefined when it is not sandboxed. */
export function sandboxOptionsOf(config: SandboxConfig | undefined): SandboxOptions | undefined {
  if (config === undefined || config === false) return undefined;
  return config === true ? {} : config;
}

/** The port of a `host:port` target, undefined for a bare host. */
export function portOf(target: string): number | undefined {
  const match = /:(\d{1,5})$/.exec(target);
  return match && !target.endsWith(']') ? Number(match[1]) : undefined;
}

/** One connection the egress proxy refused. */
export interface SandboxRefusal {
  host: string;
  port: number;
  at: number;
}

/** What a sandboxed entry shows: the badge's hover and the pane header's refusal count. */
export interface SandboxInfo {
  /** Where it may connect besides Switchboard itself (the allowlist, with the API hosts whose keys stay outside). */
  reach: string[];
  /** Folders it may write. */
  writable: string[];
  /** Connections refused since the entry was created. */
  refusedCount: number;
  /** The newest refusals (at most a few), newest last. */
  refused: SandboxRefusal[];
}
