/**
 * Endpoint discovery (docs/mcp.md): the running app writes `{ url, token, pid }` to
 * `mcp-endpoint.json` in its data directory, readable by the user only, and removes it on quit.
 * Used by the Electron shell (userData) and by `serve` (--data-dir).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MCP_ENDPOINT_FILE, type McpEndpointInfo } from '../../../shared/mcp';

export function endpointFilePath(dataDir: string): string {
  return join(dataDir, MCP_ENDPOINT_FILE);
}

/**
 * Writes the file atomically (temp file created 0600, fsync, rename): a reader never sees a
 * half-written token, and the token is never readable by others, not even for a moment.
 */
export function writeEndpointFile(dataDir: string, info: McpEndpointInfo): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const target = endpointFilePath(dataDir);
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify({ url: info.url, token: info.token, pid: info.pid })}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
  return target;
}

/** Removes the file if it is still ours (another instance may have replaced it since). */
export function removeEndpointFile(dataDir: string, pid: number = process.pid): void {
  const current = readEndpointFile(dataDir);
  if (current && current.pid !== pid) return;
  rmSync(endpointFilePath(dataDir), { force: true });
}

export function readEndpointFile(dataDir: string): McpEndpointInfo | undefined {
  let text: string;
  try {
    text = readFileSync(endpointFilePath(dataDir), 'utf8');
  } catch {
    return undefined; // absent: no app running with this data directory
  }
  try {
    const value = JSON.parse(text) as Partial<McpEndpointInfo>;
    if (typeof value.url === 'string' && typeof value.token === 'string' && typeof value.pid === 'number') {
      return { url: value.url, token: value.token, pid: value.pid };
    }
  } catch {
    // A corrupt file is treated as absent; the next start overwrites it.
  }
  return undefined;
}
