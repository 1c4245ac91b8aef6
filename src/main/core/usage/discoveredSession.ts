/**
 * The session id of a CLI that names its session files itself and that Switchboard does not
 * resume (pi): found the way discovered resume ids are (`discoverSessionId`: the file the run holds
 * open, else the newest one under the CLI's home written since the run started that records the
 * run's working directory). Each run starts unknown: a fresh run writes a new file.
 */
import { discoverSessionId, type SessionHome } from '../agents';
import type { Disposable } from '../base';
import type { ProcessEntry } from '../sessions';

export type SessionFileRule = SessionHome & { pattern: RegExp };

export class DiscoveredSession implements Disposable {
  private sessionId: string | undefined;
  private runStartedAt = 0;
  private readonly started: Disposable;

  constructor(
    private readonly entry: ProcessEntry,
    private readonly rule: SessionFileRule,
  ) {
    this.started = entry.onDidStartRun((run) => {
      this.runStartedAt = run.at;
      this.sessionId = undefined;
    });
  }

  /** The current run's id, looked for while unknown. */
  get id(): string | undefined {
    if (this.sessionId || this.runStartedAt === 0) return this.sessionId;
    this.sessionId = discoverSessionId(this.rule, {
      pid: this.entry.pid,
      marker: this.entry.currentRunMarker || undefined,
      cwd: this.entry.cwd,
      startedAt: this.runStartedAt,
      env: this.entry.definition.env ?? {},
    });
    return this.sessionId;
  }

  dispose(): void {
    this.started.dispose();
  }
}
