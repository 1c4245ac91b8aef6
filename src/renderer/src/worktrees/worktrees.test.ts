import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProcessInfo } from '../../../shared/model';
import type { WorktreeStatus } from '../../../shared/worktree';
import { groupByWorktree, pollWorktrees, readyUrlsOf, worktreeIdsOf } from './worktrees';

const status = (id: string, extra: Partial<WorktreeStatus> = {}): WorktreeStatus => ({
  id,
  name: id,
  path: `/wt/${id}`,
  branch: id === 'main' ? 'main' : `switchboard/${id}`,
  base: id === 'main' ? null : 'main',
  isMain: id === 'main',
  ahead: 0,
  behind: 0,
  changedFiles: 0,
  isMissing: false,
  createdBy: null,
  createdAt: '',
  ...extra,
});

const entry = (id: string, name: string, worktree?: string, readiness?: ProcessInfo['readiness']) =>
  ({
    id,
    name,
    kind: 'command',
    state: readiness?.settling ? 'starting' : (readiness?.phase ?? 'running'),
    ...(worktree ? { worktree } : {}),
    readiness,
  }) as ProcessInfo;

describe('worktree groups', () => {
  const processes = {
    a: entry('a', 'web'),
    b: entry('b', 'web', 'feature-a'),
    c: entry('c', 'claude', 'feature-a'),
    d: entry('d', 'shell'),
  };

  it('keeps a flat list while the project has only its main checkout', () => {
    expect(groupByWorktree(['a', 'd'], worktreeIdsOf(processes), [status('main')])).toBeNull();
  });

  it('groups entries by worktree, the main checkout first, keeping the sidebar order inside each group', () => {
    const groups = groupByWorktree(['b', 'a', 'c', 'd'], worktreeIdsOf(processes), [status('main'), status('feature-a'), status('empty')]);
    expect(groups?.map((g) => [g.id, g.ids, g.status?.branch])).toEqual([
      ['main', ['a', 'd'], 'main'],
      ['feature-a', ['b', 'c'], 'switchboard/feature-a'],
      ['empty', [], 'switchboard/empty'],
    ]);
  });

  it("groups an entry whose worktree the list does not know yet under that worktree's id, without a status", () => {
    const groups = groupByWorktree(['a', 'b'], worktreeIdsOf(processes), [status('main')]);
    expect(groups?.map((g) => [g.id, g.ids, g.status === undefined])).toEqual([
      ['main', ['a'], false],
      ['feature-a', ['b'], true],
    ]);
  });

  it('lists the ready URLs of a group once each, never a URL that is not ready', () => {
    const ready = { phase: 'ready', message: 'up', url: 'http://localhost:20001' } as const;
    const all = {
      w: entry('w', 'web', 'x', ready),
      v: entry('v', 'web-copy', 'x', ready),
      s: entry('s', 'api', 'x', { phase: 'starting', message: 'starting', url: 'http://localhost:20002' }),
      t: entry('t', 'settling', 'x', { phase: 'ready', settling: true, message: 'settling', url: 'http://localhost:20003' }),
    };
    expect(readyUrlsOf(['w', 'v', 's', 't'], all)).toEqual([{ name: 'web', url: 'http://localhost:20001' }]);
  });
});

describe('worktree polling', () => {
  afterEach(() => vi.useRealTimers());

  /** A page whose visibility the test flips, firing `visibilitychange` as a browser does. */
  class FakePage extends EventTarget {
    hidden = false;
    show(visible: boolean) {
      this.hidden = !visible;
      this.dispatchEvent(new Event('visibilitychange'));
    }
  }

  const start = (hasWorktrees: () => boolean) => {
    vi.useFakeTimers();
    const page = new FakePage();
    const refresh = vi.fn(() => Promise.resolve());
    const stop = pollWorktrees({ refresh, page, hasWorktrees, intervalMs: 1_000 });
    return { page, refresh, stop };
  };

  it('re-reads every interval while the page is visible and shows worktrees', async () => {
    const { refresh, stop } = start(() => true);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('never reads while the page is hidden, and reads at once when it is shown again', async () => {
    const { page, refresh, stop } = start(() => true);
    page.show(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).not.toHaveBeenCalled();
    page.show(true);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    stop();
    page.show(false);
    page.show(true);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('starts no read while the last one is still running', async () => {
    vi.useFakeTimers();
    let finish = () => {};
    const refresh = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const stop = pollWorktrees({ refresh, page: new FakePage(), hasWorktrees: () => true, intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    stop();
  });

  it('does not poll a project with its main checkout only, and starts once a worktree is listed', async () => {
    let worktrees = false;
    const { refresh, stop } = start(() => worktrees);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).not.toHaveBeenCalled();
    worktrees = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    stop();
  });
});
