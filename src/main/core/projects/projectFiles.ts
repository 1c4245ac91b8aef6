/**
 * Read-only, failure-tolerant access to a project's manifests. A proposal must never fail because
 * one file is missing, unreadable or malformed: each reader gets `undefined` and moves on.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Manifests larger than this are not parsed (a generated or vendored file, not a manifest). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

export class ProjectFiles {
  constructor(readonly root: string) {}

  text(path: string): string | undefined {
    try {
      const full = join(this.root, path);
      if (statSync(full).size > MAX_MANIFEST_BYTES) return undefined;
      return readFileSync(full, 'utf8');
    } catch {
      // Missing or unreadable: a proposal reads what it can and never fails on one manifest.
      return undefined;
    }
  }

  json(path: string): unknown {
    const text = this.text(path);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON: treated like a missing manifest.
      return undefined;
    }
  }

  exists(path: string): boolean {
    try {
      statSync(join(this.root, path));
      return true;
    } catch {
      return false;
    }
  }

  /** Sub-directories of `dir` (relative to the root), sorted, without hidden ones or node_modules. */
  subdirs(dir: string): string[] {
    try {
      return readdirSync(join(this.root, dir), { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== 'node_modules')
        .map((d) => relative(this.root, join(this.root, dir, d.name)))
        .sort();
    } catch {
      // Missing or unreadable folder: no subfolders to look at.
      return [];
    }
  }

  /** The first of `names` that exists. */
  firstOf(names: readonly string[]): string | undefined {
    return names.find((name) => this.exists(name));
  }
}
