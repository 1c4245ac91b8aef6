/**
 * Defensive parsing of an HTTP request target. Anything a client sends — `//`, a stray `%`,
 * absolute-form, `*` — either parses into a decoded path and query or is refused; nothing throws.
 */

interface RequestTarget {
  /** Percent-decoded path, always starting with a single `/`. */
  path: string;
  query: URLSearchParams;
}

/** Parses `req.url`; undefined when it is not an origin-form path we can decode. */
export function parseRequestTarget(raw: string | undefined): RequestTarget | undefined {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return undefined;
  const queryStart = raw.indexOf('?');
  const encodedPath = queryStart < 0 ? raw : raw.slice(0, queryStart);
  let path: string;
  try {
    path = decodeURIComponent(encodedPath);
  } catch {
    return undefined; // a stray or truncated %-escape
  }
  if (path.includes('\0')) return undefined;
  // URLSearchParams never throws: bad escapes stay literal.
  return { path, query: new URLSearchParams(queryStart < 0 ? '' : raw.slice(queryStart + 1)) };
}
