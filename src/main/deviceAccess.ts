/**
 * Paired devices and the attention service, composed the same way for `serve` and the desktop app
 * (docs/devices.md): the device commands the desktop UI calls, push / webhook / ntfy sent by this
 * process with no browser tab open, and (when the person opted in) the device listener.
 */
import { startDeviceServer, type RunningDeviceServer } from './core/bridge';
import { Devices, deviceCommandHandler, parsePublicAccess } from './core/devices';
import { AttentionService, type PresenceBoard } from './core/attention';
import type { Workspace } from './core/workspace';

/** The person's opt-in to reach this machine from devices (`--public-url`, or `--listen` with a certificate). */
export interface DeviceAccessFlags {
  publicUrl?: string;
  listen?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** The loopback port a `--public-url` front forwards to (0: any free one). */
  devicePort?: number;
  /** Webhooks or `ntfy+https://SERVER/TOPIC` for this run, beside the saved settings. */
  notify?: string[];
}

export interface DeviceAccess {
  /** Where devices go (`url`) and where the listener is (`listen`), when devices may come in. */
  readonly reach?: { url: string; listen: string };
  close(): Promise<void>;
}

/** Checks the flags first (a wrong one throws its one line before anything starts), then starts what they ask for. */
export async function startDeviceAccess(options: {
  workspace: Workspace;
  dataDir: string;
  staticDir: string;
  flags: DeviceAccessFlags;
  presence?: PresenceBoard;
  log: (line: string) => void;
}): Promise<DeviceAccess> {
  const { workspace, dataDir, flags, log } = options;
  const access = parsePublicAccess(flags);
  const devices = new Devices({ dataDir, publicUrl: access?.origin });
  const attention = new AttentionService({ workspace, devices, dataDir, notifyUrls: flags.notify, presence: options.presence, log });
  const commands = workspace.useDeviceCommands(deviceCommandHandler(devices, attention, options.presence));
  const pushPublicKey = attention.publicKey();
  let listener: RunningDeviceServer | undefined;
  try {
    if (access) {
      listener = await startDeviceServer({
        workspace,
        devices,
        staticDir: options.staticDir,
        publicOrigin: access.origin,
        tls: access.tls,
        loopbackPort: flags.devicePort ?? 0,
        pushPublicKey: () => pushPublicKey,
      });
    }
  } catch (err) {
    commands.dispose();
    attention.dispose();
    throw err;
  }
  return {
    ...(access && listener && { reach: { url: access.origin, listen: listener.listenUrl } }),
    async close() {
      commands.dispose();
      attention.dispose();
      await listener?.close();
    },
  };
}
