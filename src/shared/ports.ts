/** Port sightings for an entry (docs/readiness.md). Owned by core/ports. */
import { z } from 'zod';
export interface UrlSighting {
  /** Clickable http(s) URL; wildcard hosts (0.0.0.0, [::]) are shown as localhost. */
  url: string;
  port: number;
  /** Host as printed ("0.0.0.0", "[::]", "localhost", "192.168.1.4"). */
  host: string;
  /** Printed as an http(s) URL, not as a bare "host:port" or "port 3000". */
  isHttpUrl?: boolean;
  /** Byte offset of the output where it was seen. */
  offset: number;
  at: number;
}

export interface PortInfo {
  sightings: UrlSighting[];
  /** TCP ports the entry's process tree listens on. */
  listening: number[];
}

/**
 * One port of a remote host's entry forwarded to this machine's loopback (docs/remote.md): the
 * entry's URLs name `localPort` already; `error` is the one line of a forward that failed (its URLs
 * are then the host's, unchanged).
 */
export const PortForwardSchema = z
  .object({
    hostPort: z.number().int().positive(),
    localPort: z.number().int().positive().optional(),
    error: z.string().optional(),
  })
  .strict();
export type PortForward = z.infer<typeof PortForwardSchema>;

/**
 * A URL the host printed, as reached from this machine: when its port is forwarded, by 127.0.0.1
 * (where the forward listens: `localhost` could reach another server on this machine's ::1 first,
 * and dev servers accept an IP address as Host) and the local port; otherwise unchanged.
 */
export function forwardedUrl(url: string, forwards: readonly PortForward[] | undefined): string {
  if (!forwards?.length) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  const localPort = forwards.find((forward) => forward.hostPort === port)?.localPort;
  if (localPort === undefined) return url;
  parsed.hostname = '127.0.0.1';
  parsed.port = String(localPort);
  return parsed.toString();
}
