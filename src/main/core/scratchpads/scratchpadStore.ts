/**
 * Shared notes per project (docs/mcp.md scratchpad_*): every change bumps a revision; a write that
 * names a stale `expected_revision` fails with the current one and changes nothing.
 *
 * One JSON file per scratchpad, replaced atomically (temp file, fsync, rename, fsync of the
 * directory), so a crash leaves the old or the new content, never a mix. Deleting leaves a
 * tombstone that keeps the revision, so revisions never repeat and a writer holding a revision
 * from before a delete and re-create cannot overwrite the new content (no ABA).
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { SwitchboardError } from '../../../shared/errors';

/** Largest scratchpad (the MCP body cap sits above it). */
export const MAX_SCRATCHPAD_BYTES = 1024 * 1024;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface ScratchpadMeta {
  name: string;
  revision: number;
  bytes: number;
  /** Epoch ms of the last change. */
  updated_at: number;
  /** Process id of the last writer, or "external". */
  updated_by: string;
}

export interface Scratchpad extends ScratchpadMeta {
  content: string;
}

interface StoredPad extends Scratchpad {
  deleted?: boolean;
}

export class StaleRevisionError extends SwitchboardError {
  constructor(name: string, expected: number, current: number, exists: boolean) {
    const state = exists ? `is at revision ${current}` : current > 0 ? `was deleted (revision ${current})` : 'does not exist (revision 0)';
    super(
      'stale_revision',
      `Scratchpad "${name}" ${state}, not ${expected}: nothing was written. Read it, merge your change, and retry with expected_revision ${current}.`,
      { name, expected_revision: expected, current_revision: current },
    );
  }
}

export class ScratchpadNotFoundError extends SwitchboardError {
  constructor(name: string) {
    super('not_found', `No scratchpad named "${name}". scratchpad_list shows the existing ones; scratchpad_write creates one.`, { name });
  }
}

export interface WriteOptions {
  expectedRevision?: number;
  /** Who writes (process id or "external"). */
  by: string;
}

export class ScratchpadStore {
  private pads: Map<string, StoredPad> | undefined;
  private loading: Promise<Map<string, StoredPad>> | undefined;
  /** Every mutation runs after the previous one: check-then-write is atomic within the app. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly dir: string) {}

  /** The store of one project, under the app's data directory. */
  static forProject(dataDir: string, projectDir: string): ScratchpadStore {
    const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
    return new ScratchpadStore(join(dataDir, 'scratchpads', key));
  }

  async list(): Promise<ScratchpadMeta[]> {
    const pads = await this.load();
    return [...pads.values()]
      .filter((p) => !p.deleted)
      .map(meta)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async read(name: string): Promise<Scratchpad> {
    checkName(name);
    const pad = (await this.load()).get(name);
    if (!pad || pad.deleted) throw new ScratchpadNotFoundError(name);
    return { ...meta(pad), content: pad.content };
  }

  write(name: string, content: string, options: WriteOptions): Promise<ScratchpadMeta> {
    return this.mutate(name, options, () => content);
  }

  /** Adds `content` at the end; creates the scratchpad when missing. */
  append(name: string, content: string, options: WriteOptions): Promise<ScratchpadMeta> {
    return this.mutate(name, options, (current) => (current ?? '') + content);
  }

  delete(name: string, options: WriteOptions): Promise<{ name: string; deleted: true; revision: number }> {
    return this.serialized(async () => {
      checkName(name);
      const pads = await this.load();
      const pad = pads.get(name);
      if (!pad || pad.deleted) throw new ScratchpadNotFoundError(name);
      checkRevision(name, pad, options.expectedRevision);
      const tombstone: StoredPad = {
        ...pad,
        content: '',
        bytes: 0,
        revision: pad.revision + 1,
        updated_at: Date.now(),
        updated_by: options.by,
        deleted: true,
      };
      await this.persist(tombstone);
      pads.set(name, tombstone);
      return { name, deleted: true as const, revision: tombstone.revision };
    });
  }

  private mutate(name: string, options: WriteOptions, next: (current: string | undefined) => string): Promise<ScratchpadMeta> {
    return this.serialized(async () => {
      checkName(name);
      const pads = await this.load();
      const pad = pads.get(name);
      checkRevision(name, pad, options.expectedRevision);
      const content = next(pad && !pad.deleted ? pad.content : undefined);
      const bytes = Buffer.byteLength(content);
      if (bytes > MAX_SCRATCHPAD_BYTES) {
        throw new SwitchboardError(
          'invalid_argument',
          `Scratchpad "${name}" would be ${bytes} bytes; the limit is ${MAX_SCRATCHPAD_BYTES}. Nothing was written.`,
        );
      }
      const stored: StoredPad = {
        name,
        content,
        bytes,
        revision: (pad?.revision ?? 0) + 1,
        updated_at: Date.now(),
        updated_by: options.by,
      };
      await this.persist(stored);
      pads.set(name, stored);
      return meta(stored);
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined); // one failed mutation must not block the next
    return run;
  }

  private load(): Promise<Map<string, StoredPad>> {
    if (this.pads) return Promise.resolve(this.pads);
    this.loading ??= this.readAll().then((pads) => (this.pads = pads));
    return this.loading;
  }

  private async readAll(): Promise<Map<string, StoredPad>> {
    const pads = new Map<string, StoredPad>();
    let files: string[];
    try {
      files = await fs.readdir(this.dir);
    } catch {
      return pads; // no directory yet: no scratchpads
    }
    for (const file of files) {
      if (!file.endsWith('.json')) continue; // leftover temp files of an interrupted write
      try {
        const pad = JSON.parse(await fs.readFile(join(this.dir, file), 'utf8')) as StoredPad;
        if (typeof pad.name === 'string' && typeof pad.content === 'string' && Number.isInteger(pad.revision)) pads.set(pad.name, pad);
      } catch {
        // Unreadable file: skipped rather than failing every scratchpad; its name can be rewritten.
      }
    }
    return pads;
  }

  private async persist(pad: StoredPad): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = join(this.dir, fileNameOf(pad.name));
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(pad));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    await syncDirectory(this.dir);
  }
}

function meta(pad: StoredPad): ScratchpadMeta {
  return { name: pad.name, revision: pad.revision, bytes: pad.bytes, updated_at: pad.updated_at, updated_by: pad.updated_by };
}

function checkName(name: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new SwitchboardError(
      'invalid_argument',
      `Invalid scratchpad name "${name}": use 1–100 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
}

function checkRevision(name: string, pad: StoredPad | undefined, expected: number | undefined): void {
  if (expected === undefined) return;
  const current = pad?.revision ?? 0;
  const exists = pad !== undefined && !pad.deleted;
  // 0 means "create": fine while it does not exist, whatever revision its tombstone carries.
  if (expected === 0 && !exists) return;
  if (expected !== current) throw new StaleRevisionError(name, expected, current, exists);
}

/** Hex keeps names distinct on case-insensitive file systems ("Plan" vs "plan"). */
function fileNameOf(name: string): string {
  return `${Buffer.from(name, 'utf8').toString('hex')}.json`;
}

/** Makes the rename itself durable (POSIX: the directory entry lives in the directory's blocks). */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
