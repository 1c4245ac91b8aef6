/**
 * Idle stop joined to the core (docs/runtime.md): agents in worktrees report busy or idle as their
 * status changes; when a worktree's countdown ends its running servers stop and read "stopped ·
 * idle" (not an error) until something starts them again on demand (start_process, a click, a
 * dependent's start).
 */
import { DisposableStore, Emitter, serviceKey, type Capability, type Clock, type Disposable, type Event } from '../base';
import { loadConfig } from '../config';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry } from '../sessions';
import type { ControlEvent } from '../../../shared/api';
import type { AgentPrimary } from '../../../shared/status';
import type { ProcessInfo } from '../../../shared/model';
import { IdleStop } from './idleStop';

/** Agent states in which it works or a person is about to answer it: its servers stay up. */
const BUSY: ReadonlySet<AgentPrimary> = new Set(['starting', 'active', 'waiting', 'stuck']);

interface IdleStopHost {
  readonly projectDir: string;
  readonly onEvent: Event<ControlEvent>;
  entries(): ProcessEntry[];
  stopProcess(id: string): Promise<unknown>;
  addEntryDecorator<D extends EntryDecoration>(key: DecorationKey<D>, decorator: EntryDecorator<D>): Disposable;
}

/** A worktree's command entry: started or stopped by idle stop. */
class IdleStopped implements EntryDecoration {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private idleMs: number | undefined;

  constructor(
    private readonly entry: ProcessEntry,
    onStarted: () => void,
  ) {
    this.store.add(
      entry.onDidStartRun(() => {
        this.idleMs = undefined;
        this.changed.fire();
        onStarted();
      }),
    );
  }

  /** Stopped because its worktree's agents were idle `idleMs`. */
  mark(idleMs: number): void {
    this.idleMs = idleMs;
    this.changed.fire();
  }

  describe(): Partial<ProcessInfo> {
    if (this.idleMs === undefined || this.entry.isRunning) return {};
    const idle = `${Math.round(this.idleMs / 60_000)} min`;
    return {
      state: 'stopped',
      idleStopped: true,
      message: `Stopped · idle: its worktree's agents were idle for ${idle}; starts again on demand`,
    };
  }

  dispose(): void {
    this.store.dispose();
  }
}

const IDLE_STOPPED: DecorationKey<IdleStopped> = serviceKey('IdleStopped');

export function idleStopCapability(options: { clock?: Clock } = {}): Capability<IdleStopHost> {
  return {
    name: 'idle stop',
    attach(core) {
      const store = new DisposableStore();
      const servers = new Map<string, IdleStopped>();
      const idleStopMs = () => loadConfig(core.projectDir).worktrees.idleStop;
      const idle = store.add(
        new IdleStop({
          idleStopMs,
          clock: options.clock,
          stop: (worktreeId) => {
            for (const entry of core.entries()) {
              if (entry.kind !== 'command' || entry.definition.worktree !== worktreeId || !entry.isRunning) continue;
              servers.get(entry.id)?.mark(idleStopMs() ?? 0);
              void core.stopProcess(entry.id).catch(() => undefined); // a failed stop shows on the entry itself
            }
          },
        }),
      );
      store.add(
        core.addEntryDecorator(IDLE_STOPPED, (entry) => {
          const worktree = entry.definition.worktree;
          if (entry.kind !== 'command' || worktree === undefined) return undefined;
          const decoration = new IdleStopped(entry, () => idle.serverStarted(worktree));
          servers.set(entry.id, decoration);
          return decoration;
        }),
      );
      const agentWorktrees = new Map<string, string>();
      store.add(
        core.onEvent((event) => {
          if (event.type === 'processRemoved') {
            servers.delete(event.id);
            const worktree = agentWorktrees.get(event.id);
            if (worktree !== undefined) idle.agentGone(worktree, event.id);
            agentWorktrees.delete(event.id);
            return;
          }
          if (event.type !== 'processChanged' && event.type !== 'processAdded') return;
          const info = event.process;
          if (info.kind !== 'agent' || info.worktree === undefined) return;
          agentWorktrees.set(info.id, info.worktree);
          idle.agentState(info.worktree, info.id, info.pid !== undefined && BUSY.has(info.agent?.primary ?? 'starting'));
        }),
      );
      return store;
    },
  };
}
