import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointFilePath, readEndpointFile, removeEndpointFile, writeEndpointFile } from './discovery';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'discovery-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('mcp-endpoint.json', () => {
  it('is written atomically with mode 0600 and read back', () => {
    const info = { url: 'http://127.0.0.1:4000/mcp', token: 'secret', pid: process.pid };
    const file = writeEndpointFile(join(dir, 'data'), info);
    expect(file).toBe(endpointFilePath(join(dir, 'data')));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    expect(readEndpointFile(join(dir, 'data'))).toEqual(info);
    expect(readdirSync(join(dir, 'data'))).toEqual(['mcp-endpoint.json']);
  });

  it('is removed on quit, but not when another instance has replaced it', () => {
    writeEndpointFile(dir, { url: 'http://127.0.0.1:1/mcp', token: 't', pid: 999_999 });
    removeEndpointFile(dir, process.pid);
    expect(readEndpointFile(dir)?.pid).toBe(999_999);
    writeEndpointFile(dir, { url: 'http://127.0.0.1:1/mcp', token: 't', pid: process.pid });
    removeEndpointFile(dir, process.pid);
    expect(readEndpointFile(dir)).toBeUndefined();
  });

  it('treats a corrupt file as absent', () => {
    writeFileSync(endpointFilePath(dir), '{"url": 1');
    expect(readEndpointFile(dir)).toBeUndefined();
  });
});
