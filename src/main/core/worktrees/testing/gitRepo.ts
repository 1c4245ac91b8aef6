/** Real git repositories for tests: made with the git CLI in a temporary folder. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fixed identity, so commits work on a machine without a git user configured. */
const TEST_GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

export interface TestRepo {
  /** A temporary folder holding the repository (`repo`) and room beside it for managed worktrees. */
  home: string;
  root: string;
  git(...args: string[]): string;
  write(path: string, text: string, dir?: string): void;
  commitAll(message: string, dir?: string): void;
  cleanup(): void;
}

export function makeTestRepo(files: Record<string, string> = { 'README.md': 'hello\n' }): TestRepo {
  Object.assign(process.env, TEST_GIT_ENV);
  const home = mkdtempSync(join(tmpdir(), 'sb-wt-'));
  const root = join(home, 'repo');
  mkdirSync(root);
  const run = (dir: string, args: string[]): string =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...TEST_GIT_ENV } });
  run(root, ['init', '--quiet', '--initial-branch=main']);
  const repo: TestRepo = {
    home,
    root,
    git: (...args) => run(root, args),
    write(path, text, dir = root) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    commitAll(message, dir = root) {
      run(dir, ['add', '--all']);
      run(dir, ['commit', '--quiet', '-m', message]);
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
  for (const [path, text] of Object.entries(files)) repo.write(path, text);
  repo.commitAll('initial');
  return repo;
}
