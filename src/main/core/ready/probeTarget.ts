/**
 * Which port (or URL) tells whether a starting server is up: a pure choice over what was
 * observed so far, so it can be read and tested as a table.
 */
import type { UrlSighting } from '../../../shared/ports';
import type { PlaceHint } from './lineClassifier';
import { displayUrl, isLoopbackOrWildcard, portOfUrl } from '../ports';

export interface ProbeTarget {
  port: number;
  /** Display URL ("http://localhost:5173"). */
  url: string;
  /** Probe with an HTTP GET of this URL instead of a TCP connect (the `url` field). */
  httpUrl?: string;
  /** Came from the config or a framework line, not from a URL that merely appeared in output. */
  isTrusted: boolean;
  /** "config port", "pattern vite-local-url", "listening", … */
  source: string;
  /**
   * An HTTP server said it is ready here: it counts as up only once it answers an HTTP request
   * (any status), not on a TCP accept alone (a server that binds, then dies on its config).
   */
  confirmsWithHttp?: boolean;
}

export interface ProbeTargetInput {
  /** The `url` field (probed with HTTP). */
  configUrl?: string;
  /** The `port` field. */
  configPort?: number;
  /** Where framework lines said the server is, oldest first. */
  places: readonly PlaceHint[];
  /** URLs that appeared in the output, oldest first (untrusted). */
  sightings: readonly UrlSighting[];
  /** Ports a "port in use" line said the server left, and the one it moved to. */
  movedAway: ReadonlySet<number>;
  movedTo?: number;
  /** Ports the process tree listens on (last scan). */
  listening: readonly number[];
  /** Ports known to answer but owned by another program. */
  foreignPorts: ReadonlySet<number>;
}

/**
 * Order of trust: the configured URL, a port the server said it moved to, the configured port,
 * a framework's own line, a URL in the output on a loopback or wildcard host that is not someone
 * else's, then a port the tree listens on.
 */
export function selectProbeTarget(input: ProbeTargetInput): ProbeTarget | undefined {
  const usable = (port: number) => !input.movedAway.has(port) || port === input.movedTo;
  if (input.configUrl) {
    return {
      port: portOfUrl(new URL(input.configUrl)),
      url: displayUrl(input.configUrl),
      httpUrl: input.configUrl,
      isTrusted: true,
      source: 'config url',
    };
  }
  if (input.movedTo !== undefined) return targetFor(input, input.movedTo, 'moved port');
  if (input.configPort !== undefined && usable(input.configPort)) return targetFor(input, input.configPort, 'config port');
  // The first place printed is the server; a later one on another port is an auxiliary server
  // (HMR websocket, Storybook's preview) unless the tree listens only there (the first was a
  // placeholder) or the first port moved.
  const usablePlaces = input.places.filter((p) => usable(p.port) && !input.foreignPorts.has(p.port));
  const place = usablePlaces.find((p) => input.listening.includes(p.port)) ?? usablePlaces[0] ?? input.places.find((p) => usable(p.port));
  if (place) return { port: place.port, url: displayUrl(place.url), isTrusted: true, source: `pattern ${place.patternId}` };
  // A URL in the output may name another service ("connected to localhost:5432"): skip it when
  // it is someone else's open port, or when the tree listens elsewhere.
  const sighting = input.sightings.find(
    (s) =>
      usable(s.port) &&
      isLoopbackOrWildcard(s.host) &&
      !input.foreignPorts.has(s.port) &&
      (input.listening.length === 0 || input.listening.includes(s.port)),
  );
  if (sighting) {
    // The port of the first sighting; the URL as the server printed it last ("listening on
    // http://127.0.0.1:8080" after "starting on port 8080").
    const latest = [...input.sightings].reverse().find((s) => s.port === sighting.port && isLoopbackOrWildcard(s.host)) ?? sighting;
    return { port: sighting.port, url: displayUrl(latest.url), isTrusted: false, source: 'url sighting' };
  }
  const listeningPort = input.listening.find(usable);
  if (listeningPort !== undefined) return targetFor(input, listeningPort, 'listening');
  return undefined;
}

function targetFor(input: ProbeTargetInput, port: number, source: string): ProbeTarget {
  const seen = input.places.find((p) => p.port === port)?.url ?? input.sightings.find((s) => s.port === port)?.url;
  return { port, url: displayUrl(seen ?? `http://localhost:${port}/`), isTrusted: true, source };
}
