/**
 * A command session without a process, for unit tests of detectors: the test decides when a run
 * starts, what it prints (in chunks, exactly as a PTY would deliver them) and how it exits.
 */
import { FakeObservedSession } from '../../sessions/testing/fakeObservedSession';

export class FakeSession extends FakeObservedSession {
  readonly id = 'p_fa4e01';
  readonly kind = 'command' as const;

  constructor(
    readonly argv: readonly string[] = ['npm', 'run', 'dev'],
    readonly cwd: string = '/nonexistent/project',
  ) {
    super();
  }
}
