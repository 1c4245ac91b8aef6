/** The launched CLI's version: read from the real binary, once per binary, again after an update. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliVersionCache, parseCliVersion } from './cliVersion';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

/** A stand-in CLI that counts its own `--version` runs in a file next to it. */
function fakeCli(version: string): { file: string; runs: () => number } {
  dir ??= mkdtempSync(path.join(tmpdir(), 'cli-version-'));
  const file = path.join(dir, 'agent');
  const log = path.join(dir, 'runs');
  writeFileSync(file, `#!/bin/sh\necho x >> '${log}'\necho '${version} (Agent CLI)'\n`);
  chmodSync(file, 0o755);
  return { file, runs: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

describe('CLI version', () => {
  it('parses the forms the verified CLIs print', () => {
    expect(parseCliVersion('2.1.197 (Claude Code)')).toBe('2.1.197');
    expect(parseCliVersion('codex-cli 0.169.0')).toBe('0.169.0');
    expect(parseCliVersion('Package extraction took 6422ms\nGitHub Copilot CLI 1.0.102.')).toBe('1.0.102');
    expect(parseCliVersion('1.2.0-beta.3')).toBe('1.2.0-beta.3');
    expect(parseCliVersion('usage: agent [options]')).toBeUndefined();
  });

  it('reads the real Claude Code binary', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8')) as {
      version: string;
    };
    const version = await new CliVersionCache().versionOf(path.join(REPO_ROOT, 'node_modules/.bin/claude'));
    expect(version).toBe(pkg.version);
  });

  it('asks each binary once, and again once it was replaced (an update)', async () => {
    const cache = new CliVersionCache();
    const cli = fakeCli('2.1.197');
    expect(await Promise.all([cache.versionOf(cli.file), cache.versionOf(cli.file)])).toEqual(['2.1.197', '2.1.197']);
    expect(await cache.versionOf(cli.file)).toBe('2.1.197');
    expect(cli.runs()).toBe(1);
    fakeCli('2.1.332');
    utimesSync(cli.file, new Date(), new Date(Date.now() + 5_000));
    expect(await cache.versionOf(cli.file)).toBe('2.1.332');
    expect(cli.runs()).toBe(2);
  });

  it('a binary that is missing or fails says nothing', async () => {
    const cache = new CliVersionCache();
    expect(await cache.versionOf('/nonexistent/agent')).toBeUndefined();
    dir = mkdtempSync(path.join(tmpdir(), 'cli-version-'));
    const failing = path.join(dir, 'failing');
    writeFileSync(failing, '#!/bin/sh\necho "1.0.0" ; exit 3\n');
    chmodSync(failing, 0o755);
    expect(await cache.versionOf(failing)).toBeUndefined();
  });
});
