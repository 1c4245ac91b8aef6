/**
 * Whether an agent continues by itself at its limit (docs/agent-status.md, "Continue at reset"):
 * the toggle set at run time (UI, MCP, `serve`), else the agent's switchboard.json entry, else the
 * project's `settings.continueAtReset`, else off. Shown on each agent entry as `continueAtReset`.
 */
import { Emitter, serviceKey, type Disposable } from '../base';
import { KeyedStateDecoration, type DecorationKey, type EntryDecoration, type EntryDecorator } from '../sessions';
import type { ContinueAtResetInfo } from '../../../shared/model';

export class ContinueSettings implements Disposable {
  private readonly toggles = new Map<string, boolean>();
  private readonly changed = new Emitter<string>();
  /** Fires with the agent id whose toggle changed. */
  readonly onDidChange = this.changed.event;

  /** `projectDefault` is read each time: the config file is watched and may change it. */
  constructor(private readonly projectDefault: () => boolean | undefined) {}

  of(id: string, entryValue: boolean | undefined): ContinueAtResetInfo {
    const toggle = this.toggles.get(id);
    if (toggle !== undefined) return { enabled: toggle, source: 'toggle' };
    if (entryValue !== undefined) return { enabled: entryValue, source: 'agent' };
    const project = this.projectDefault();
    return project !== undefined ? { enabled: project, source: 'project' } : { enabled: false, source: 'default' };
  }

  set(id: string, enabled: boolean): void {
    this.toggles.set(id, enabled);
    this.changed.fire(id);
  }

  forget(id: string): void {
    this.toggles.delete(id);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export const CONTINUE_SETTING_DECORATION: DecorationKey<EntryDecoration> = serviceKey('continue at reset');

/** Decorates agent entries with their effective setting. */
export function continueSettingDecorator(settings: ContinueSettings): EntryDecorator {
  return (entry) =>
    entry.definition.kind === 'agent'
      ? new KeyedStateDecoration(entry.id, settings.onDidChange, () => ({
          continueAtReset: settings.of(entry.id, entry.definition.continueAtReset),
        }))
      : undefined;
}
