/**
 * Least privilege for the tokens of spawned entries. Every token may list all entries and read
 * their status, spawn processes, and read, type into and control its own entry and the entries it
 * spawned (and theirs, at any depth). Anything else needs a scope: from switchboard.json
 * ("mcp": {"scopes": [...]}, part of what the user trusts) or granted by a person in the UI.
 */
import type { McpScope } from '../../../shared/trust';

/** How far a spawn chain is followed (a loop in the records must not hang a call). */
const MAX_SPAWN_DEPTH = 64;

export class EntryAccess {
  /** child id → id of the entry that spawned it. Kept after the parent closes, so grandparents still own. */
  private readonly spawnedBy = new Map<string, string>();
  /** Scopes a person granted an entry in the UI, for the entry's lifetime. */
  private readonly granted = new Map<string, Set<McpScope>>();

  recordSpawn(childId: string, parentId: string): void {
    if (childId !== parentId) this.spawnedBy.set(childId, parentId);
  }

  /** The caller's own entry, or one it spawned (directly or through entries it spawned). */
  owns(callerId: string, targetId: string): boolean {
    let current: string | undefined = targetId;
    for (let depth = 0; current !== undefined && depth <= MAX_SPAWN_DEPTH; depth += 1) {
      if (current === callerId) return true;
      current = this.spawnedBy.get(current);
    }
    return false;
  }

  spawnerOf(id: string): string | undefined {
    return this.spawnedBy.get(id);
  }

  grant(id: string, scopes: readonly McpScope[]): McpScope[] {
    const set = this.granted.get(id) ?? new Set<McpScope>();
    for (const scope of scopes) set.add(scope);
    this.granted.set(id, set);
    return [...set].sort();
  }

  /** Scopes a person granted the entry (kept with the entry across app restarts). */
  grantedTo(id: string): McpScope[] {
    return [...(this.granted.get(id) ?? [])].sort();
  }

  /** Scopes of an entry's token: its config's (trusted with it) and those a person granted. */
  scopesOf(id: string, configScopes: readonly McpScope[] = []): McpScope[] {
    return [...new Set([...configScopes, ...(this.granted.get(id) ?? [])])].sort();
  }

  forget(id: string): void {
    this.granted.delete(id);
    this.spawnedBy.delete(id);
  }
}
