/**
 * Where a server can be reached: the one place that knows which hosts mean "this machine", which
 * port a URL without one uses, and how a URL is shown. Output readers (URL sightings, framework
 * lines) and the probe-target choice all normalise through here, so they agree on every address.
 */

const MAX_PORT = 65_535;

/** Hosts a server binds to mean "every interface"; people reach them as localhost. */
const WILDCARD_HOST = /^(?:0\.0\.0\.0|\[::\])$/;
const LOOPBACK_OR_WILDCARD_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])$/i;
/** "app.localhost" resolves to loopback in browsers and most resolvers. */
const LOCALHOST_SUBDOMAIN = /^[\w-]+\.localhost$/i;

export function isValidPort(port: unknown): port is number {
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= MAX_PORT;
}

export function defaultPortOf(scheme: 'http' | 'https'): number {
  return scheme === 'https' ? 443 : 80;
}

/** The port a parsed URL reaches, its scheme's default when it names none. */
export function portOfUrl(url: URL): number {
  return url.port ? Number(url.port) : defaultPortOf(url.protocol === 'https:' ? 'https' : 'http');
}

function isWildcardHost(host: string): boolean {
  return WILDCARD_HOST.test(host);
}

export function isLoopbackOrWildcard(host: string): boolean {
  return LOOPBACK_OR_WILDCARD_HOST.test(host);
}

/** Loopback, wildcard or a *.localhost name: a URL on such a host needs no port to count. */
export function namesThisMachine(host: string): boolean {
  return isLoopbackOrWildcard(host) || LOCALHOST_SUBDOMAIN.test(host);
}

/** The host as a person types it: wildcard binds become localhost, names lower case. */
export function hostToShow(host: string): string {
  return isWildcardHost(host) ? 'localhost' : host.toLowerCase();
}

/** "http://localhost:5173/" → "http://localhost:5173" (as people write it); paths stay. */
export function displayUrl(url: string): string {
  return url.replace(/^(https?:\/\/[^/]+)\/$/, '$1');
}
