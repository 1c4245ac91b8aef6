/**
 * A session without a process, for unit tests of detectors: the test decides when a run starts,
 * what it prints (in chunks, exactly as a PTY would deliver them) and how it exits.
 */
import { Emitter, type Event } from '../../base/lifecycle';
import type { ObservedSession, OutputChunk, RunExited, RunStarted, ScreenView } from '../../sessions/types';

const NO_SCREEN: ScreenView = {
  cols: 120,
  rows: 40,
  title: '',
  getVisibleLines: () => [],
  getCursor: () => ({ x: 0, y: 0 }),
  onDidChange: new Emitter<void>().event,
  onDidChangeTitle: new Emitter<string>().event,
};

export class FakeSession implements ObservedSession {
  readonly id = 'p_fa4e01';
  readonly kind = 'command' as const;
  readonly screen = NO_SCREEN;
  runId = 0;
  pid: number | undefined;
  isRunning = false;
  private offset = 0;

  private readonly output = new Emitter<OutputChunk>();
  private readonly started = new Emitter<RunStarted>();
  private readonly exited = new Emitter<RunExited>();
  readonly onOutput: Event<OutputChunk> = this.output.event;
  readonly onRunStarted: Event<RunStarted> = this.started.event;
  readonly onRunExited: Event<RunExited> = this.exited.event;

  constructor(
    readonly argv: readonly string[] = ['npm', 'run', 'dev'],
    readonly cwd: string = '/nonexistent/project',
  ) {}

  start(pid = 4242): void {
    this.runId += 1;
    this.pid = pid;
    this.isRunning = true;
    this.started.fire({ runId: this.runId, pid, at: Date.now(), offset: this.offset });
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
