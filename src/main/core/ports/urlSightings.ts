/**
 * URL sightings: where a server says it can be reached, parsed from one line of output
 * ("➜  Local:   http://localhost:5173/", "Starting development server at http://127.0.0.1:8000/",
 * "Listening on 0.0.0.0:8000", "[::]:5173", "Server listening on port 3000").
 */
import type { UrlSighting } from '../../../shared/ports';
import { stripAnsi } from '../base';
import { defaultPortOf, hostToShow, isValidPort, namesThisMachine } from './serverAddress';

/** http(s) URL; the host may be a bracketed IPv6 literal. Paths stop at quotes and brackets. */
const URL_PATTERN = /\bhttps?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d{1,5}))?(\/[^\s'"<>`)\]]*)?/g;
/** host:port without a scheme, only for hosts that can only mean "this machine". */
const BARE_LOCAL_ADDRESS = /(?<![\w/.:@-])(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]):(\d{1,5})(?![\d.:])/g;
/** "listening on port 3000", "Server running on port: 8080" — a port without any host. */
const PORT_PHRASE = /\b(?:listen(?:ing)?|running|serving|started|available|up)\b.{0,40}?\bport\s*:?\s*(\d{2,5})\b/i;
/**
 * Lines about a connection the program makes, or one that failed, name someone else's address:
 * "connect ECONNREFUSED 127.0.0.1:5432", "Error 111 connecting to localhost:6379",
 * "Can't reach database server at `localhost:5432`", "[vite] http proxy error".
 */
const SOMEONE_ELSES_ADDRESS =
  /\b(?:E(?:CONN[A-Z]+|ADDRINUSE|ADDRNOTAVAIL|HOSTUNREACH|TIMEDOUT|NOTFOUND)|connect(?:ed|ing)?\s+to|connection\s+(?:to|refused|reset|failed|closed)|(?:can(?:no|')t|could\s*n[o']t|unable\s+to|failed\s+to)\s+(?:connect|reach)|proxy\s+error)\b/i;
/** Lines about a port that is taken or being left are not places to reach the server. */
const NOT_A_PLACE_TO_REACH = /\b(?:in use|already|EADDRINUSE|busy|trying|instead|unavailable)\b/i;

interface ParsedSighting {
  url: string;
  port: number;
  host: string;
  isHttpUrl?: boolean;
}

/** Sightings in one line of output, in the order printed. Escape sequences are ignored. */
export function parseUrlSightings(line: string): ParsedSighting[] {
  const text = stripAnsi(line);
  if (SOMEONE_ELSES_ADDRESS.test(text)) return [];
  const found: ParsedSighting[] = [];
  const seen = new Set<string>();
  const add = (sighting: ParsedSighting | undefined) => {
    if (!sighting || seen.has(sighting.url)) return;
    seen.add(sighting.url);
    found.push(sighting);
  };

  let withoutUrls = text;
  for (const match of text.matchAll(URL_PATTERN)) {
    withoutUrls = withoutUrls.replace(match[0], ' ');
    const sighting = fromUrlMatch(match[0], match[1], match[2], match[3]);
    add(sighting && { ...sighting, isHttpUrl: true });
  }
  for (const match of withoutUrls.matchAll(BARE_LOCAL_ADDRESS)) {
    add(toSighting('http', match[1], Number(match[2]), ''));
  }
  if (found.length === 0 && !NOT_A_PLACE_TO_REACH.test(text)) {
    const phrase = PORT_PHRASE.exec(text);
    if (phrase) add(toSighting('http', 'localhost', Number(phrase[1]), ''));
  }
  return found;
}

/** Sightings with their offset and time, for PortInfo. */
export function sightingsAt(line: string, offset: number, at: number): UrlSighting[] {
  return parseUrlSightings(line).map((s) => ({ ...s, offset, at }));
}

function fromUrlMatch(raw: string, host: string, portText: string | undefined, path: string | undefined): ParsedSighting | undefined {
  const scheme = raw.startsWith('https') ? 'https' : 'http';
  if (portText === undefined && !namesThisMachine(host)) return undefined; // "https://nextjs.org/docs"
  const port = portText !== undefined ? Number(portText) : defaultPortOf(scheme);
  return toSighting(scheme, host, port, trimTrailingPunctuation(path ?? ''));
}

function toSighting(scheme: 'http' | 'https', host: string, port: number, path: string): ParsedSighting | undefined {
  if (!isValidPort(port)) return undefined;
  const isDefaultPort = port === defaultPortOf(scheme);
  const url = `${scheme}://${hostToShow(host)}${isDefaultPort ? '' : `:${port}`}${path || '/'}`;
  return { url, port, host };
}

/** "http://localhost:3000." at the end of a sentence: the dot is prose, not path. */
function trimTrailingPunctuation(path: string): string {
  return path.replace(/[.,;:!?]+$/, '');
}
