/**
 * Switchboard's additions to an opencode run's inline config. opencode reads
 * OPENCODE_CONFIG_CONTENT (JSONC, like its files) as its last, highest-precedence config layer; a
 * user who set it keeps every setting and provider of theirs, and Switchboard's entries are
 * merged in: objects key by key (a `switchboard` MCP server is Switchboard's own, with this run's
 * endpoint), lists (`plugin`, `instructions`) extended. Content that is not a JSON object is left
 * exactly as the user wrote it (opencode reports it) and Switchboard adds nothing.
 */
import { isPlainObject, parseJsonObject } from './jsonc';

export const OPENCODE_CONFIG_CONTENT_ENV = 'OPENCODE_CONFIG_CONTENT';

/** The content to run with: ours merged into the user's, theirs unchanged when it cannot be read, ours alone when unset. */
export function mergedOpencodeConfig(userContent: string | undefined, ours: Record<string, unknown>): string | undefined {
  if (userContent === undefined || userContent.trim() === '') return JSON.stringify(ours);
  const theirs = parseJsonObject(userContent);
  return theirs === undefined ? undefined : JSON.stringify(mergeConfig(theirs, ours));
}

function mergeConfig(theirs: Record<string, unknown>, ours: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...theirs };
  for (const [key, value] of Object.entries(ours)) {
    const existing = merged[key];
    if (isPlainObject(existing) && isPlainObject(value)) merged[key] = mergeConfig(existing, value);
    else if (Array.isArray(existing) && Array.isArray(value)) merged[key] = extended(existing as unknown[], value as unknown[]);
    else merged[key] = value;
  }
  return merged;
}

function extended(theirs: readonly unknown[], ours: readonly unknown[]): unknown[] {
  return [...theirs, ...ours.filter((item) => !theirs.includes(item))];
}
