/**
 * The worktree and runtime tests' common set-up: a real core (createCore, with its MCP endpoint)
 * on a test git repository, its data dir in the repository's home, no config watcher and a short
 * kill grace; and a plain HTTP GET of what a server there answers.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import type { Clock } from '../../src/main/core/base';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import type { TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';

/** `grantTrust` (default true) trusts the project's switchboard.json, as `serve --trust` does. */
export function startRepoCore(repo: TestRepo, options: { grantTrust?: boolean; clock?: Clock } = {}): Promise<CoreHandle> {
  return createCore({
    projectDir: repo.root,
    dataDir: join(repo.home, 'data'),
    watchConfig: false,
    killGraceMs: 1_000,
    grantTrust: options.grantTrust ?? true,
    clock: options.clock,
  });
}

/** Status and body of a GET; no keep-alive, so no socket outlives the test. */
export function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { agent: false, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${url} did not answer`)));
    req.on('error', fail);
    req.end();
  });
}

/** The body a server answers at `url`. */
export async function httpText(url: string): Promise<string> {
  return (await httpGet(url)).body;
}
