/**
 * An ObservedSession fed from a recording instead of a PTY: the same ScreenModel the real entries
 * use, with output, run start and exit fired by the replay driver.
 */
import { Emitter, type Event } from '../../base';
import { ScreenModel, type ObservedSession, type OutputChunk, type RunExited, type RunStarted } from '../../sessions';

export class ReplaySession implements ObservedSession {
  readonly id = 'p_replay0';
  readonly kind = 'agent' as const;
  readonly cwd = '/tmp/replay';
  readonly screen: ScreenModel;
  private offset = 0;
  private running = false;
  private currentRunId = 0;

  private readonly output = new Emitter<OutputChunk>();
  readonly onDidWriteOutput: Event<OutputChunk> = this.output.event;
  private readonly started = new Emitter<RunStarted>();
  readonly onDidStartRun: Event<RunStarted> = this.started.event;
  private readonly exited = new Emitter<RunExited>();
  readonly onDidExitRun: Event<RunExited> = this.exited.event;

  constructor(
    cols: number,
    rows: number,
    readonly argv: readonly string[] = ['claude'],
  ) {
    this.screen = new ScreenModel({ cols, rows });
  }

  get runId(): number {
    return this.currentRunId;
  }
  get pid(): number | undefined {
    return this.running ? 4242 : undefined;
  }
  get isRunning(): boolean {
    return this.running;
  }

  start(at: number): void {
    this.running = true;
    this.currentRunId++;
    this.started.fire({ runId: this.currentRunId, pid: 4242, at, offset: this.offset });
  }

  /** Feeds bytes to the screen and resolves once they are parsed (onDidChange has fired). */
  async write(text: string): Promise<void> {
    const data = Buffer.from(text, 'utf8');
    const start = this.offset;
    this.offset += data.length;
    this.screen.write(data, this.offset);
    this.output.fire({ data, text, start, end: this.offset, runId: this.currentRunId });
    await this.screen.flush();
  }

  exit(exitCode: number, at: number): void {
    this.running = false;
    this.exited.fire({ runId: this.currentRunId, exitCode, at });
  }

  dispose(): void {
    this.output.dispose();
    this.started.dispose();
    this.exited.dispose();
    this.screen.dispose();
  }
}
