/**
 * Granted trust, kept in the app's data directory — never in the project, which a clone or an
 * agent could write. One file for every project: `trust.json`, 0600, replaced atomically.
 *   { "version": 1, "projects": { "/abs/project": { "processes.web": "<sha256>", … } } }
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const TRUST_FILE = 'trust.json';

interface TrustFile {
  version: 1;
  projects: Record<string, Record<string, string>>;
}

export interface TrustStore {
  /** Config key → fingerprint granted for this project. */
  load(projectDir: string): Map<string, string>;
  save(projectDir: string, granted: ReadonlyMap<string, string>): void;
}

/** Trust that lives only as long as the process (tests, embedders without a data directory). */
export class MemoryTrustStore implements TrustStore {
  private readonly projects = new Map<string, Map<string, string>>();
  load(projectDir: string): Map<string, string> {
    return new Map(this.projects.get(projectDir));
  }
  save(projectDir: string, granted: ReadonlyMap<string, string>): void {
    this.projects.set(projectDir, new Map(granted));
  }
}

export class FileTrustStore implements TrustStore {
  readonly path: string;

  constructor(readonly dataDir: string) {
    this.path = join(dataDir, TRUST_FILE);
  }

  load(projectDir: string): Map<string, string> {
    return new Map(Object.entries(this.read().projects[projectDir] ?? {}));
  }

  /** Read-modify-write of the whole file: other projects' grants are kept. */
  save(projectDir: string, granted: ReadonlyMap<string, string>): void {
    const file = this.read();
    file.projects[projectDir] = Object.fromEntries(granted);
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(file, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
  }

  /** A missing or unreadable file trusts nothing (the user is asked again; nothing runs unasked). */
  private read(): TrustFile {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return { version: 1, projects: {} };
    }
    if (!isTrustFile(parsed)) return { version: 1, projects: {} };
    return parsed;
  }
}

function isTrustFile(value: unknown): value is TrustFile {
  if (!value || typeof value !== 'object') return false;
  const { version, projects } = value as Partial<TrustFile>;
  if (version !== 1 || !projects || typeof projects !== 'object') return false;
  return Object.values(projects).every(
    (entries) => entries && typeof entries === 'object' && Object.values(entries).every((fingerprint) => typeof fingerprint === 'string'),
  );
}
