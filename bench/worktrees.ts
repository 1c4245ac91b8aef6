/**
 * Worktrees on a repository of 5,000 files: "new agent in a worktree" (create, copy, set-up, then
 * the agent, through the same core method the UI's dialog calls) until the agent's prompt is ready,
 * against `git worktree add` alone in the same run; and `list_worktrees` with 20 worktrees (the
 * core method the MCP tool and the UI call), against `git worktree list` alone and against the
 * issue's goal baseline, `git worktree list` plus ONE `git status` (docs/worktrees.md, "How fresh
 * the list is"), cold (first call) and warm.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore, type CoreHandle } from '../src/main/core/composition';
import { makeTestRepo, type TestRepo } from '../src/main/core/worktrees/testing/gitRepo';
import { mapLimited } from '../src/main/core/worktrees/worktreeStatus';
import { CLAUDE_PERMISSION_STAND_IN } from '../e2e/support/standIn';
import { percentile, type BenchRow } from './report';

const SECTION = 'worktrees';
const FILES = 5_000;
const ROUNDS = 5;
const LISTED_WORKTREES = 20;
/** The first call reads every worktree with git (cold cache); later ones reuse what nothing changed (docs/worktrees.md, "How fresh the list is"). */
const LIST_CALLS = 5;
/** The goal: list_worktrees within this multiple of `git worktree list` plus one `git status`. */
const LIST_GOAL_RATIO = 3;

function repositoryOf(files: number): TestRepo {
  const contents: Record<string, string> = {};
  for (let i = 0; i < files; i++) contents[`src/dir${i % 50}/file${i}.ts`] = `export const value${i} = ${i};\n`;
  return makeTestRepo(contents);
}

/** The baseline: the bare `git worktree add` of a new branch, as a person would type it. */
function timeBareWorktreeAdd(repo: TestRepo, round: number): number {
  const dir = join(repo.home, `bare-${round}`);
  const started = performance.now();
  execFileSync('git', ['worktree', 'add', '--quiet', '-b', `bare-${round}`, dir, 'main'], { cwd: repo.root });
  const elapsed = performance.now() - started;
  execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: repo.root });
  execFileSync('git', ['branch', '-D', `bare-${round}`], { cwd: repo.root, stdio: 'ignore' });
  return elapsed;
}

/**
 * From the request to the agent's prompt ready (its status leaves `starting`: the e2e stand-in drew
 * Claude Code's prompt box), then it is closed and its worktree removed.
 */
async function timeAgentInWorktree(handle: CoreHandle, round: number): Promise<number> {
  const { core } = handle;
  const started = performance.now();
  // Agents seen past `starting` from the start: the agent may be ready before startAgentInWorktree returns.
  const ready = new Set<string>();
  let wake = () => {};
  const subscription = core.onEvent((event) => {
    if (event.type !== 'processChanged' || (event.process.agent?.primary ?? 'starting') === 'starting') return;
    ready.add(event.process.id);
    wake();
  });
  const result = await core.worktrees.startAgentInWorktree({
    name: `agent-${round}`,
    preset: 'claude',
    argv: ['/bin/sh', '-c', CLAUDE_PERMISSION_STAND_IN],
  });
  const agentId = result.agent.id;
  await new Promise<void>((resolve) => {
    wake = () => (ready.has(agentId) || (core.describe(agentId).agent?.primary ?? 'starting') !== 'starting') && resolve();
    wake();
  });
  subscription.dispose();
  const elapsed = performance.now() - started;
  await core.closeProcess(agentId);
  await core.worktrees.manager.remove(result.worktree.id, true);
  return elapsed;
}

/** The status read list_worktrees runs per worktree, here once, in the main checkout. */
const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'];

async function timeListing(repo: TestRepo, handle: CoreHandle): Promise<{ listed: number[]; bare: number[]; withStatus: number[] }> {
  const listed: number[] = [];
  const bare: number[] = [];
  const withStatus: number[] = [];
  for (let i = 0; i < LIST_CALLS; i++) {
    let started = performance.now();
    execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repo.root });
    bare.push(performance.now() - started);
    execFileSync('git', STATUS_ARGS, { cwd: repo.root, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
    withStatus.push(performance.now() - started);
    started = performance.now();
    const worktrees = await handle.core.worktrees.manager.status();
    listed.push(performance.now() - started);
    if (worktrees.length !== LISTED_WORKTREES + 1) throw new Error(`list_worktrees listed ${worktrees.length}`);
  }
  return { listed, bare, withStatus };
}

/** The git work a cold list cannot avoid: one `git status` in every worktree, as many at once as list_worktrees runs. */
async function timeStatusEverywhere(handle: CoreHandle): Promise<number> {
  const paths = handle.core.worktrees.manager.list().map((worktree) => worktree.path);
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0' };
  const started = performance.now();
  await mapLimited(paths, (cwd) => promisify(execFile)('git', STATUS_ARGS, { cwd, env }));
  return performance.now() - started;
}

export async function benchWorktrees(): Promise<BenchRow[]> {
  const repo = repositoryOf(FILES);
  const handle = await createCore({ projectDir: repo.root, dataDir: join(repo.home, 'data'), watchConfig: false, grantTrust: true });
  try {
    const bare: number[] = [];
    const agent: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(timeBareWorktreeAdd(repo, round));
      agent.push(await timeAgentInWorktree(handle, round));
    }
    for (let i = 0; i < LISTED_WORKTREES; i++) await handle.core.worktrees.createWorktree({ name: `listed-${i}` });
    const listing = await timeListing(repo, handle);
    const statusEverywhere = await timeStatusEverywhere(handle);
    const row = (name: string, value: number, baseline: number, goal?: string): BenchRow => ({
      section: SECTION,
      name,
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      ...(goal ? { goal, met: value / baseline <= LIST_GOAL_RATIO } : {}),
    });
    return [
      row(`new agent in a worktree → prompt ready (${FILES} files), median`, percentile(agent, 50), percentile(bare, 50)),
      row(`list_worktrees, ${LISTED_WORKTREES} worktrees, first call (cold cache)`, listing.listed[0], listing.bare[0]),
      row(
        `list_worktrees, ${LISTED_WORKTREES} worktrees, first call (cold) vs git worktree list + one git status`,
        listing.listed[0],
        listing.withStatus[0],
        `≤ ${LIST_GOAL_RATIO}×`,
      ),
      row(
        `list_worktrees, ${LISTED_WORKTREES} worktrees, first call (cold) vs git status in all ${LISTED_WORKTREES + 1} checkouts`,
        listing.listed[0],
        statusEverywhere,
      ),
      row(
        `list_worktrees, ${LISTED_WORKTREES} worktrees, p50 (warm) vs git worktree list + one git status`,
        percentile(listing.listed, 50),
        percentile(listing.withStatus, 50),
        `≤ ${LIST_GOAL_RATIO}×`,
      ),
      row(
        `list_worktrees (its core method), ${LISTED_WORKTREES} worktrees, p50`,
        percentile(listing.listed, 50),
        percentile(listing.bare, 50),
      ),
      row(
        `list_worktrees (its core method), ${LISTED_WORKTREES} worktrees, p95`,
        percentile(listing.listed, 95),
        percentile(listing.bare, 95),
      ),
    ];
  } finally {
    await handle.dispose();
    repo.cleanup();
  }
}
