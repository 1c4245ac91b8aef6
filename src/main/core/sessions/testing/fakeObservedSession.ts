/**
 * A session without a process, for unit tests of whatever watches sessions (readiness, status,
 * tasks): the test decides when a run starts, what it prints (in chunks, exactly as a PTY would
 * deliver them) and how it exits. Subclasses fix the identity (`id`, `kind`, `argv`, `cwd`).
 */
import { Emitter, type Event } from '../../base';
import type { ObservedSession, OutputChunk, RunExited, RunStarted, ScreenView } from '../types';
import type { ProcessKind } from '../../../../shared/model';

/** An empty 120x40 screen that never changes. */
const NO_SCREEN: ScreenView = {
  cols: 120,
  rows: 40,
  title: '',
  getVisibleLines: () => [],
  getCursor: () => ({ x: 0, y: 0 }),
  onDidChange: new Emitter<void>().event,
  onDidChangeTitle: new Emitter<string>().event,
  agentState: '',
  onDidChangeAgentState: new Emitter<string>().event,
};

export abstract class FakeObservedSession implements ObservedSession {
  abstract readonly id: string;
  abstract readonly kind: ProcessKind;
  abstract readonly argv: readonly string[];
  abstract readonly cwd: string;
  readonly screen = NO_SCREEN;
  runId = 0;
  pid: number | undefined;
  isRunning = false;
  private offset = 0;

  private readonly output = new Emitter<OutputChunk>();
  private readonly started = new Emitter<RunStarted>();
  private readonly exited = new Emitter<RunExited>();
  readonly onDidWriteOutput: Event<OutputChunk> = this.output.event;
  readonly onDidStartRun: Event<RunStarted> = this.started.event;
  readonly onDidExitRun: Event<RunExited> = this.exited.event;

  start(pid = 4242, wrapperPorts?: readonly number[]): void {
    this.runId += 1;
    this.pid = pid;
    this.isRunning = true;
    this.started.fire({ runId: this.runId, pid, at: Date.now(), offset: this.offset, wrapperPorts });
  }

  /** Writes as one chunk of the current run (or of `runId`, to test stale output). */
  print(text: string, runId = this.runId): void {
    const data = Buffer.from(text);
    const start = this.offset;
    this.offset += data.length;
    this.output.fire({ data, text, start, end: this.offset, runId });
  }

  exit(exitCode: number, signal?: number): void {
    this.isRunning = false;
    this.pid = undefined;
    this.exited.fire({ runId: this.runId, exitCode, signal, at: Date.now() });
  }
}
