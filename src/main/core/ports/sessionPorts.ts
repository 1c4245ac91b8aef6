/**
 * Ports of any entry (terminals and agents start servers too): a PortMonitor fed by the session's
 * current run. Command entries get the same from their ReadinessTracker instead.
 */
import { DisposableBase, type Event } from '../base/lifecycle';
import type { PortInfo } from '../../../shared/ports';
import type { ObservedSession } from '../sessions/types';
import { OutputLineReader } from './outputLines';
import { PortMonitor, type PortMonitorOptions } from './portMonitor';

export class SessionPortWatcher extends DisposableBase {
  private readonly monitor: PortMonitor;
  private readonly lines = this.register(new OutputLineReader());
  private runId: number;

  readonly onDidChange: Event<PortInfo>;

  constructor(session: ObservedSession, options: PortMonitorOptions = {}) {
    super();
    this.monitor = this.register(new PortMonitor(options));
    this.onDidChange = this.monitor.onDidChange;
    this.runId = session.runId;
    if (session.isRunning) this.monitor.beginRun(session.pid);
    this.register(
      session.onRunStarted((run) => {
        this.runId = run.runId;
        this.lines.reset();
        this.monitor.beginRun(run.pid);
      }),
    );
    this.register(
      session.onRunExited((exit) => {
        if (exit.runId !== this.runId) return;
        for (const line of this.lines.flush()) this.monitor.recordLine(line);
        this.monitor.endRun();
      }),
    );
    this.register(
      session.onOutput((chunk) => {
        if (chunk.runId !== this.runId) return; // only the current run's output counts
        for (const line of this.lines.push(chunk)) this.monitor.recordLine(line);
      }),
    );
  }

  get info(): PortInfo {
    return this.monitor.info;
  }
}
