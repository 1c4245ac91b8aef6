/**
 * The saved state of a project's entries in the app's data directory, per project: what ran, with
 * which run marker and agent session, and each entry's serialized scrollback. Written atomically
 * (a SIGKILL leaves the previous or the new state, never half), read leniently (a corrupt file is
 * moved aside and reported, the app starts empty).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic, writeFileAtomicAsync } from '../base';
import { ProcessIdSchema, PROCESS_KINDS, RESUME_POLICIES } from '../../../shared/model';
import { McpScopeSchema } from '../../../shared/trust';
import { formatZodIssues } from '../../../shared/errors';

export const STATE_VERSION = 1;

const SpecSchema = z.object({
  name: z.string().min(1),
  kind: z.enum(PROCESS_KINDS),
  argv: z.array(z.string()).min(1),
  cwd: z.string().min(1),
  env: z.record(z.string(), z.string()).optional(),
  cols: z.number().int().optional(),
  rows: z.number().int().optional(),
  preset: z.string().optional(),
  stuckThresholdMs: z.number().optional(),
  continueAtReset: z.boolean().optional(),
  ready: z.record(z.string(), z.unknown()).optional(),
  resume: z.enum(RESUME_POLICIES).optional(),
  persistSecretEnv: z.boolean().optional(),
  /** The worktree it runs in (its registry lives apart, in the worktrees' own file). */
  worktree: z.string().optional(),
});

const SavedEntrySchema = z.object({
  id: ProcessIdSchema,
  /** `agents.<name>` / `processes.<name>` for switchboard.json entries (their spec comes from the file). */
  configKey: z.string().optional(),
  /** Entries spawned at run time carry their spec. */
  spec: SpecSchema.optional(),
  wasRunning: z.boolean(),
  /** Finds the run's leftover processes after a crash. */
  runMarker: z.string().optional(),
  sessionId: z.string().optional(),
  /** When its scrollback file was last written. */
  scrollbackSavedAt: z.number().optional(),
  /** Scopes a person granted its MCP token: they last as long as the entry. */
  grantedScopes: z.array(McpScopeSchema).optional(),
  /** The entry that spawned it (and so may drive and stop it). */
  spawnedBy: ProcessIdSchema.optional(),
  /** Env names whose secret values were not written (restored without them, and told so). */
  withheldEnv: z.array(z.string()).optional(),
});
export type SavedEntry = z.infer<typeof SavedEntrySchema>;

const StateSchema = z.object({
  version: z.literal(STATE_VERSION),
  savedAt: z.number(),
  pid: z.number(),
  entries: z.array(SavedEntrySchema),
});
export type SavedState = z.infer<typeof StateSchema>;

export class StateStore {
  readonly dir: string;
  private readonly statePath: string;

  constructor(dataDir: string, projectDir: string) {
    const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
    this.dir = join(dataDir, 'continuity', key);
    this.statePath = join(this.dir, 'state.json');
  }

  /** The saved state, or undefined; `problem` says why a file that exists could not be used. */
  load(): { state?: SavedState; problem?: string } {
    let text: string;
    try {
      text = readFileSync(this.statePath, 'utf8');
    } catch {
      return {};
    }
    let parsed;
    try {
      parsed = StateSchema.safeParse(JSON.parse(text));
    } catch (err) {
      return { problem: this.moveAside(`not JSON (${err instanceof Error ? err.message : String(err)})`) };
    }
    if (!parsed.success) return { problem: this.moveAside(formatZodIssues(parsed.error.issues)) };
    return { state: parsed.data };
  }

  save(state: SavedState): void {
    writeFileAtomic(this.statePath, `${JSON.stringify(state)}\n`);
  }

  saveScrollback(id: string, serialized: string): Promise<void> {
    return writeFileAtomicAsync(this.scrollbackPath(id), serialized);
  }

  readScrollback(id: string): string | undefined {
    try {
      return readFileSync(this.scrollbackPath(id), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** The previous app run's scrollback, kept apart from the one the current run keeps writing. */
  keepAsPrevious(id: string): void {
    if (existsSync(this.scrollbackPath(id))) renameSync(this.scrollbackPath(id), this.previousPath(id));
  }

  readPrevious(id: string): string | undefined {
    try {
      return readFileSync(this.previousPath(id), 'utf8');
    } catch {
      return undefined;
    }
  }

  removeEntryFiles(id: string): void {
    rmSync(this.scrollbackPath(id), { force: true });
    rmSync(this.previousPath(id), { force: true });
  }

  /** Scrollback files of entries the state no longer knows (closed, or from a lost state). */
  removeOrphans(knownIds: ReadonlySet<string>): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const id = /^(p_[0-9a-f]+)\.(?:previous\.)?screen$/.exec(name)?.[1];
      if (id && !knownIds.has(id)) rmSync(join(this.dir, name), { force: true });
    }
  }

  private scrollbackPath(id: string): string {
    return join(this.dir, `${id}.screen`);
  }

  private previousPath(id: string): string {
    return join(this.dir, `${id}.previous.screen`);
  }

  private moveAside(reason: string): string {
    const aside = `${this.statePath}.corrupt-${Date.now()}`;
    try {
      renameSync(this.statePath, aside);
    } catch {
      // Not ours to move: the next save replaces it.
    }
    return `Saved state ${this.statePath} could not be read (${reason}); moved to ${aside}, starting without it`;
  }
}
