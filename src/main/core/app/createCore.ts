/**
 * Builds the core with every capability wired in. The Electron shell and `serve` both call this,
 * so they run exactly the same core.
 */
import { SwitchboardCore, type SwitchboardCoreOptions } from './switchboardCore';
import type { EntryDecorator } from './entryDecoration';

export interface CreateCoreOptions {
  projectDir: string;
  /** Where the app keeps its own files (endpoint discovery, scratchpads, timers). */
  dataDir: string;
  killGraceMs?: number;
  watchConfig?: boolean;
}

export interface CoreHandle {
  core: SwitchboardCore;
  dispose(): Promise<void>;
}

export async function createCore(options: CreateCoreOptions): Promise<CoreHandle> {
  const decorators: EntryDecorator[] = [];
  const coreOptions: SwitchboardCoreOptions = {
    projectDir: options.projectDir,
    killGraceMs: options.killGraceMs,
    watchConfig: options.watchConfig,
    decorators,
  };
  const core = new SwitchboardCore(coreOptions);
  await core.init();
  return {
    core,
    async dispose() {
      await core.dispose();
    },
  };
}
