/**
 * Joins worktrees to the core: the registry of this project's worktrees (kept in the app's data
 * directory), the managed folder (switchboard.json `worktrees.dir`, default under the data dir),
 * and the "in use" and "last used" facts the core's entries give.
 */
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { DisposableStore, type Capability, type Clock, type Disposable, type ServiceKey } from '../base';
import { loadConfig } from '../config';
import { WorktreeRuntime } from '../runtime';
import { WorktreeManager } from './worktreeManager';
import { WORKTREES, WorktreeService } from './worktreeService';
import { FileWorktreeStore } from './worktreeStore';
import type { WorktreeHost } from './worktreeHost';
import { WorktreeInstances } from './worktreeInstances';
import { trustedWorktreeSettings } from './worktreeTrust';

interface WorktreeCapabilityHost extends WorktreeHost {
  readonly services: { provide(key: ServiceKey<WorktreeService>, service: WorktreeService): Disposable };
}

export interface WorktreeCapabilityOptions {
  dataDir: string;
  /** The project's canonical folder (one registry and one managed folder per project). */
  projectKey: string;
  /** The clock idle stop counts on (docs/runtime.md); real time by default. */
  clock?: Clock;
}

export function worktreeCapability(options: WorktreeCapabilityOptions): Capability<WorktreeCapabilityHost> {
  return {
    name: 'worktrees',
    attach(core) {
      const folder = join(options.dataDir, 'worktrees', projectFolderName(options.projectKey));
      const store = new DisposableStore();
      const trustedSettings = () => trustedWorktreeSettings(core.trust, loadConfig(core.projectDir).worktrees, core.projectDir) ?? {};
      const instances = new WorktreeInstances(core, new WorktreeRuntime(core.projectDir, core.ports));
      const manager = store.add(
        new WorktreeManager({
          projectDir: core.projectDir,
          // The project's dir and copy act only once trusted (worktreeTrust.ts); before, Switchboard's own folder and no copies.
          managedDir: () => trustedSettings().dir ?? folder,
          store: new FileWorktreeStore(`${folder}.json`),
          copyGlobs: () => trustedSettings().copy ?? [],
          mayRunGit: () => core.trust.isFolderTrusted(),
          isInUse: (id) => core.entries().some((entry) => entry.definition.worktree === id && entry.isRunning),
          onDidRemove: (id) => instances.release(id),
        }),
      );
      store.add(core.services.provide(WORKTREES, new WorktreeService(core, manager, instances)));
      // Git runs in the folder only once it is trusted: the main checkout is read then.
      store.add(core.trust.onDidChange(() => void manager.onTrustChanged()));
      store.add(core.onDidAddEntry((entry) => entry.definition.worktree && manager.markUsed(entry.definition.worktree)));
      return { dispose: () => store.dispose(), beforeInit: () => manager.refreshMain() };
    },
  };
}

/** Readable and unique: the project's folder name and a hash of its full path. */
function projectFolderName(projectKey: string): string {
  const hash = createHash('sha256').update(projectKey).digest('hex').slice(0, 8);
  return `${basename(projectKey).replace(/[^\w.-]/g, '_')}-${hash}`;
}
