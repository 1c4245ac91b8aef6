import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passPort } from './passPort';
import { PORT_PASSING_RULES } from './portPassing';
import { FRAMEWORK_IDS } from '../../../shared/ready';

const root = mkdtempSync(join(tmpdir(), 'sb-passport-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function project(files: Record<string, string> = {}): string {
  const dir = join(root, `p${counter++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const scripts = (s: Record<string, string>, devDependencies: Record<string, string> = {}) => ({
  'package.json': JSON.stringify({ scripts: s, devDependencies }),
});

function pass(argv: string[], files: Record<string, string> = {}, port = 20_123) {
  const dir = project(files);
  return passPort({ argv, cwd: dir, projectDir: dir }, port);
}

describe('the port-passing table', () => {
  it('every row names a known framework, a source, a version and a way ({port} in args or env)', () => {
    for (const rule of PORT_PASSING_RULES) {
      expect(FRAMEWORK_IDS).toContain(rule.framework);
      expect(rule.source.length).toBeGreaterThan(10);
      expect(rule.version).toMatch(/\d/);
      expect(JSON.stringify([rule.args ?? [], rule.env ?? {}])).toContain('{port}');
    }
    expect(new Set(PORT_PASSING_RULES.map((r) => r.framework)).size).toBe(PORT_PASSING_RULES.length);
  });
});

describe('passPort', () => {
  it.each([
    ['vite', ['vite'], {}, ['vite', '--port', '20123', '--strictPort'], {}],
    ['next dev', ['npx', 'next', 'dev'], {}, ['npx', 'next', 'dev', '-p', '20123'], {}],
    ['django runserver', ['python3', 'manage.py', 'runserver'], {}, ['python3', 'manage.py', 'runserver', '127.0.0.1:20123'], {}],
    [
      'django with an address',
      ['python3', 'manage.py', 'runserver', '8000', '--noreload'],
      {},
      ['python3', 'manage.py', 'runserver', '127.0.0.1:20123', '--noreload'],
      {},
    ],
    ['flask run', ['flask', '--app', 'app', 'run'], {}, ['flask', '--app', 'app', 'run', '--port', '20123'], {}],
    ['uvicorn', ['uvicorn', 'main:app'], {}, ['uvicorn', 'main:app', '--port', '20123'], {}],
    ['rails', ['bin/rails', 'server'], {}, ['bin/rails', 'server', '-p', '20123'], {}],
    ['astro', ['npx', 'astro', 'dev'], {}, ['npx', 'astro', 'dev', '--port', '20123'], {}],
    ['nuxt', ['npx', 'nuxi', 'dev'], {}, ['npx', 'nuxi', 'dev', '--port', '20123'], {}],
    ['angular', ['ng', 'serve'], {}, ['ng', 'serve', '--port', '20123'], {}],
    ['laravel', ['php', 'artisan', 'serve'], {}, ['php', 'artisan', 'serve', '--port=20123'], {}],
    ['phoenix (env)', ['mix', 'phx.server'], {}, ['mix', 'phx.server'], { PORT: '20123' }],
    ['CRA (env)', ['npx', 'react-scripts', 'start'], {}, ['npx', 'react-scripts', 'start'], { PORT: '20123' }],
    ['an existing --port gets the new value', ['vite', '--port', '5173'], {}, ['vite', '--port', '20123', '--strictPort'], {}],
    ['--port=N form', ['vite', '--port=5173', '--strictPort'], {}, ['vite', '--port=20123', '--strictPort'], {}],
    [
      'npm run dev → vite: after --',
      ['npm', 'run', 'dev'],
      scripts({ dev: 'vite' }),
      ['npm', 'run', 'dev', '--', '--port', '20123', '--strictPort'],
      {},
    ],
    ['pnpm dev → next dev: appended', ['pnpm', 'dev'], scripts({ dev: 'next dev' }), ['pnpm', 'dev', '-p', '20123'], {}],
    [
      'yarn start → vite (dependency + server script)',
      ['yarn', 'start'],
      scripts({ start: 'vite' }, { vite: '7' }),
      ['yarn', 'start', '--port', '20123', '--strictPort'],
      {},
    ],
    [
      'sh -c "npm run dev"',
      ['/bin/sh', '-c', 'npm run dev'],
      scripts({ dev: 'vite' }),
      ['/bin/sh', '-c', 'npm run dev -- --port 20123 --strictPort'],
      {},
    ],
  ])('%s', (_label, argv, files, expectedArgv, expectedEnv) => {
    const result = pass(argv, files);
    expect(result).toMatchObject({ kind: 'passed', argv: expectedArgv });
    if (result.kind === 'passed') expect(result.env).toEqual(expectedEnv);
  });

  it.each([
    ['unknown server', ['node', 'server.js'], {}, /^no known dev server in this command: put \$\{port\} in its args or env/],
    ['a known framework without a way', ['npx', 'convex', 'dev'], {}, /^Convex has no known way to be told its port/],
    [
      'a compound script',
      ['npm', 'run', 'dev'],
      scripts({ dev: 'vite build && vite preview' }),
      /^package.json script "dev" runs several commands/,
    ],
    [
      'a script with a fixed port',
      ['npm', 'run', 'dev'],
      scripts({ dev: 'vite --port 5173' }),
      /^package.json script "dev" fixes its port \(--port 5173\)/,
    ],
    ['a compound shell line', ['/bin/sh', '-c', 'vite --host & node api.js'], {}, /^its command line runs several commands/],
    ['a dependency alone says nothing about the command', ['node', 'worker.js'], scripts({}, { vite: '7' }), /^no known dev server/],
  ])('one clear line instead of a collision: %s', (_label, argv, files, problem) => {
    const result = pass(argv, files);
    expect(result.kind).toBe('unknown');
    if (result.kind === 'unknown') expect(result.problem).toMatch(problem);
  });
});
