/**
 * Where a project's view state lives: one small JSON file per project in the app's data directory
 * (never in the project, which a clone or an agent can write). The desktop window and every browser
 * on `serve` read and write the same file, so a layout follows the project, not the window.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../base';
import { DEFAULT_UI_STATE, parseUiState, type UiState, type UiStatePatch } from '../../../shared/uiState';

export interface UiStateStore {
  load(): UiState;
  save(state: UiState): void;
}

export class MemoryUiStateStore implements UiStateStore {
  private state: UiState = { ...DEFAULT_UI_STATE };
  load(): UiState {
    return this.state;
  }
  save(state: UiState): void {
    this.state = state;
  }
}

export class FileUiStateStore implements UiStateStore {
  constructor(readonly path: string) {}

  static forProject(dataDir: string, projectDir: string): FileUiStateStore {
    const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
    return new FileUiStateStore(join(dataDir, 'ui', `${key}.json`));
  }

  /** A missing file is the defaults; an unreadable one is moved aside (kept for the user) and the defaults used. */
  load(): UiState {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { ...DEFAULT_UI_STATE };
    }
    try {
      return parseUiState(JSON.parse(text));
    } catch {
      renameSync(this.path, `${this.path}.corrupt-${Date.now()}`);
      return { ...DEFAULT_UI_STATE };
    }
  }

  save(state: UiState): void {
    writeFileAtomic(this.path, JSON.stringify(state, null, 2));
  }
}

/** The state after a patch: fields given replace the stored ones, the rest stays. */
export function applyUiStatePatch(state: UiState, patch: UiStatePatch): UiState {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return { ...state, ...defined };
}

/** Applies a patch to the stored state and keeps the result. */
export function updateUiState(store: UiStateStore, patch: UiStatePatch): UiState {
  const next = applyUiStatePatch(store.load(), patch);
  store.save(next);
  return next;
}
