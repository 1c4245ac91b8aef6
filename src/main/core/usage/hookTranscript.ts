/**
 * The session file of a CLI that names it in its own hook input (`transcript_path`: Gemini CLI,
 * whose file name holds only part of its session id and whose home is a per-run folder): the
 * last one a hook of the current run named, when it is absolute and the source's pattern accepts
 * it. Two agents in the same project each get their own file this way, which a search by
 * working directory and time could not tell apart.
 */
import { isAbsolute } from 'node:path';
import { DisposableStore, type Disposable, type Event } from '../base';
import type { AgentHookEvent } from '../../../shared/status';

export class HookTranscript implements Disposable {
  private readonly store = new DisposableStore();
  private path: string | undefined;

  constructor(onRunStart: Event<unknown>, onHook: Event<AgentHookEvent>, pattern: RegExp) {
    this.store.add(onRunStart(() => (this.path = undefined)));
    this.store.add(
      onHook(({ transcriptPath }) => {
        if (transcriptPath && isAbsolute(transcriptPath) && pattern.test(transcriptPath)) this.path = transcriptPath;
      }),
    );
  }

  /** The file's path: the session's identity for the usage reader. */
  get id(): string | undefined {
    return this.path;
  }

  dispose(): void {
    this.store.dispose();
  }
}
