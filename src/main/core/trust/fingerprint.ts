/**
 * The trust fingerprint of a config entry: a hash of exactly what it would run — argv (the
 * command line, or the agent's full argv), working directory, environment, and the MCP scopes
 * its token would carry. Readiness settings, names and autoStart run nothing and are left out,
 * so editing them never asks again.
 */
import { createHash } from 'node:crypto';
import type { ProcessSpec } from '../../../shared/model';
import type { TrustedFields, WorktreeTrustFields } from '../../../shared/trust';

export function trustedFieldsOf(spec: ProcessSpec): TrustedFields {
  const env = Object.fromEntries(Object.entries(spec.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    argv: [...spec.argv],
    cwd: spec.cwd,
    env,
    ...(spec.mcp ? { scopes: [...new Set(spec.mcp.scopes)].sort() } : {}),
    ...(spec.sandbox ? { sandbox: spec.sandbox } : {}),
  };
}

export function trustFingerprint(spec: ProcessSpec): string {
  const fields = trustedFieldsOf(spec);
  const parts: unknown[] = [fields.argv, fields.cwd, Object.entries(fields.env), fields.scopes ?? null];
  // Appended only when present, so an entry without a sandbox keeps the fingerprint it was trusted with.
  if (fields.sandbox) parts.push(sortedKeys(fields.sandbox));
  const canonical = JSON.stringify(parts);
  return createHash('sha256').update(canonical).digest('hex');
}

/** The fingerprint of a held request: the `worktrees` section's folder, copies and set-up, or an entry's run. */
export function heldFingerprint(entry: { spec: ProcessSpec; worktrees?: WorktreeTrustFields }): string {
  if (!entry.worktrees) return trustFingerprint(entry.spec);
  const { dir, copy, setup } = entry.worktrees;
  return createHash('sha256')
    .update(JSON.stringify(['worktrees', dir ?? null, copy, setup]))
    .digest('hex');
}

/** What the folder's own trust stores: the folder it was granted for. */
export function folderFingerprint(projectDir: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['folder', projectDir]))
    .digest('hex');
}

/** Object keys in a fixed order at every depth: where a field sits in the file is not an edit. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => [key, sortedKeys(inner)]),
  );
}
