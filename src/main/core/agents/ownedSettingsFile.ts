/**
 * Settings files that Switchboard owns, for agent CLIs that read MCP servers only from a settings
 * FILE (no inline flag that expands env vars): written once per content into a private
 * directory (0700, files 0600) created for this Switchboard process, never into the user's
 * own config. The contents carry no secret: the per-run token stays in the environment and the
 * CLI expands it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let ownedDir: string | null = null;

function dir(): string {
  ownedDir ??= mkdtempSync(path.join(os.tmpdir(), 'switchboard-agent-settings-'));
  return ownedDir;
}

/** Path of a file `<prefix>-<hash of content>.<extension>` holding `content`; written on first use. */
export function ownedSettingsFile(prefix: string, content: string, extension = 'json'): string {
  const name = `${prefix}-${createHash('sha256').update(content).digest('hex').slice(0, 16)}.${extension}`;
  const file = path.join(dir(), name);
  if (readIfExists(file) !== content) writeFileSync(file, content, { mode: 0o600 });
  return file;
}

/**
 * A directory `<prefix>-<hash of its files>` holding `files` (relative path → content), for a CLI
 * that loads a folder (Copilot CLI's `--plugin-dir`); written on first use, like a settings file.
 */
export function ownedDirectory(prefix: string, files: Readonly<Record<string, string>>): string {
  const content = JSON.stringify(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
  const root = path.join(dir(), `${prefix}-${createHash('sha256').update(content).digest('hex').slice(0, 16)}`);
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (readIfExists(file) !== text) writeFileSync(file, text, { mode: 0o600 });
  }
  return root;
}

function readIfExists(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Missing or unreadable: there is nothing of the user's to keep.
    return null;
  }
}
