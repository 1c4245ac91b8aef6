/**
 * Watches the project directory for switchboard.json edits. Editors often replace the file
 * (write temp + rename), which a watch on the file itself would lose, so the directory is watched.
 */
import { watch, type FSWatcher } from 'node:fs';
import { Emitter, type Event, type Disposable } from '../base';
import { CONFIG_FILE_NAME } from '../../../shared/config';

/** Editors write in several steps; one reload after the burst. */
const CONFIG_DEBOUNCE_MS = 150;

export class ConfigWatcher implements Disposable {
  private readonly watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(projectDir: string) {
    try {
      this.watcher = watch(projectDir, (_event, filename) => {
        if (filename && filename.toString() !== CONFIG_FILE_NAME) return;
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => this.changed.fire(), CONFIG_DEBOUNCE_MS);
      });
      this.watcher.on('error', () => undefined); // directory removed: keep running with what we have
    } catch {
      this.watcher = undefined; // unwatchable directory: edits need a restart, nothing else breaks
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
    this.changed.dispose();
  }
}
