/**
 * Agent CLIs that reach their model API through a base-URL variable: inside a sandbox the variable
 * points at Switchboard's key proxy and the key variable holds a placeholder; the proxy puts the
 * real key back on the way out (docs/sandbox.md lists which CLIs this covers).
 */
import { createHash } from 'node:crypto';

export interface ApiKeyRoute {
  /** The variable holding the base URL the CLI calls. */
  baseUrlEnv: string;
  /** The variable holding the key (the route applies only when it is set). */
  keyEnv: string;
  /** Where the CLI goes when the base-URL variable is unset. */
  defaultBaseUrl: string;
  /** The request header the key travels in, and its form. */
  header: 'x-api-key' | 'authorization' | 'x-goog-api-key';
  /** A query parameter the API also takes the key in (Gemini's `?key=`, used by its Live API's WebSocket URL). */
  queryKey?: string;
}

export const API_KEY_ROUTES: readonly ApiKeyRoute[] = [
  // Claude Code (source: its `ANTHROPIC_BASE_URL` / `x-api-key` client; verified against 2.1.332 and the mock).
  { baseUrlEnv: 'ANTHROPIC_BASE_URL', keyEnv: 'ANTHROPIC_API_KEY', defaultBaseUrl: 'https://api.anthropic.com', header: 'x-api-key' },
  // Codex, Qwen Code, opencode and others on the OpenAI wire (Bearer key).
  { baseUrlEnv: 'OPENAI_BASE_URL', keyEnv: 'OPENAI_API_KEY', defaultBaseUrl: 'https://api.openai.com/v1', header: 'authorization' },
  // Gemini CLI with an API key.
  {
    baseUrlEnv: 'GOOGLE_GEMINI_BASE_URL',
    keyEnv: 'GEMINI_API_KEY',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    header: 'x-goog-api-key',
    queryKey: 'key',
  },
];

/**
 * What the sandbox sees instead of `key`: the same leading shape (so a CLI's format check passes)
 * and a tail derived from the key by a one-way hash, stable across runs (Claude Code remembers a
 * key it was allowed to use by its last 20 characters).
 */
export function placeholderKey(key: string): string {
  const prefix = /^[a-z]+-(?:[a-z]+-)?(?:api\d+-)?/i.exec(key)?.[0] ?? '';
  const digest = createHash('sha256').update(`switchboard-sandbox:${key}`).digest('hex');
  return `${prefix}switchboard-sandbox-${digest.slice(0, 32)}`;
}

/** The header value that carries `key` for `route`. */
export function keyHeaderValue(route: ApiKeyRoute, key: string): string {
  return route.header === 'authorization' ? `Bearer ${key}` : key;
}

/**
 * The path a request to the key proxy leaves with: under the real base URL's path, and with the
 * route's key parameter, when the request carried one, holding the real key instead of whatever
 * the sandbox sent (only the parameter's value changes; everything else is kept as sent).
 */
export function upstreamPath(route: ApiKeyRoute, basePath: string, requestPath: string, key: string): string {
  const base = basePath.replace(/\/$/, '');
  const queryAt = requestPath.indexOf('?');
  if (!route.queryKey || queryAt < 0) return `${base}${requestPath}`;
  const name = route.queryKey;
  const params = requestPath
    .slice(queryAt + 1)
    .split('&')
    .map((param) => (param === name || param.startsWith(`${name}=`) ? `${name}=${encodeURIComponent(key)}` : param));
  return `${base}${requestPath.slice(0, queryAt)}?${params.join('&')}`;
}
