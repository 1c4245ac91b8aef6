import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFramework, resolveCommandLine } from './detectFramework';

const root = mkdtempSync(join(tmpdir(), 'sb-detect-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A throwaway project directory with the given files. */
function project(files: Record<string, string | object>): string {
  const dir = join(root, `p${counter++}`);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const pkg = (scripts: Record<string, string>, deps: Record<string, string> = {}, devDeps: Record<string, string> = {}) => ({
  'package.json': { scripts, dependencies: deps, devDependencies: devDeps },
});

describe('detectFramework', () => {
  it.each([
    ['npm run dev → "next dev"', ['npm', 'run', 'dev'], pkg({ dev: 'next dev --turbopack' }, { next: '16', react: '19' }), 'nextjs'],
    ['pnpm dev → "vite"', ['pnpm', 'dev'], pkg({ dev: 'vite' }, {}, { vite: '7' }), 'vite'],
    ['yarn start → react-scripts', ['yarn', 'start'], pkg({ start: 'react-scripts start' }, { 'react-scripts': '5' }), 'cra'],
    ['npm start → ng serve', ['npm', 'start'], pkg({ start: 'ng serve' }, { '@angular/core': '17' }), 'angular'],
    [
      'vite dev in a SvelteKit project',
      ['npm', 'run', 'dev'],
      pkg({ dev: 'vite dev' }, {}, { '@sveltejs/kit': '2', vite: '5' }),
      'sveltekit',
    ],
    [
      'storybook script in a Next.js project',
      ['npm', 'run', 'storybook'],
      pkg({ storybook: 'storybook dev -p 6006' }, { next: '14' }),
      'storybook',
    ],
    ['cross-env prefix', ['npm', 'run', 'dev'], pkg({ dev: 'cross-env NODE_ENV=development vue-cli-service serve' }), 'vue-cli'],
    ['npx next dev', ['npx', 'next', 'dev'], {}, 'nextjs'],
    ['direct binary path', ['node_modules/.bin/vite', '--port', '5199'], {}, 'vite'],
    ['webpack serve', ['npx', 'webpack', 'serve'], {}, 'webpack-dev-server'],
    ['convex dev', ['npx', 'convex', 'dev'], {}, 'convex'],
    ['python manage.py runserver', ['python3', 'manage.py', 'runserver', '8000'], { 'manage.py': '' }, 'django'],
    ['flask run', ['python3', '-m', 'flask', '--app', 'app', 'run'], {}, 'flask'],
    ['uvicorn', ['uvicorn', 'main:app', '--reload'], {}, 'uvicorn'],
    ['fastapi dev', ['fastapi', 'dev', 'main.py'], {}, 'uvicorn'],
    ['bin/rails server', ['bin/rails', 'server'], {}, 'rails'],
    ['mix phx.server', ['mix', 'phx.server'], {}, 'phoenix'],
    ['php artisan serve', ['php', 'artisan', 'serve'], {}, 'laravel'],
    ['mvn spring-boot:run', ['mvn', 'spring-boot:run'], {}, 'spring-boot'],
    ['./gradlew bootRun', ['./gradlew', 'bootRun'], {}, 'spring-boot'],
    ['sh -c "npm run dev"', ['sh', '-c', 'npm run dev'], pkg({ dev: 'astro dev' }, { astro: '4' }), 'astro'],
    ['make dev in a Django project (files)', ['make', 'dev'], { 'manage.py': '' }, 'django'],
    [
      './bin/dev in a Rails project (Gemfile)',
      ['./bin/dev'],
      { Gemfile: "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\n" },
      'rails',
    ],
    ['./start in a Phoenix project (mix.exs)', ['./start'], { 'mix.exs': 'defp deps do [{:phoenix, "~> 1.7"}] end' }, 'phoenix'],
    ['./run in a Laravel project (artisan)', ['./run'], { artisan: '#!/usr/bin/env php' }, 'laravel'],
    [
      './run in a Spring Boot project (pom.xml)',
      ['./run'],
      { 'pom.xml': '<artifactId>spring-boot-starter-web</artifactId>' },
      'spring-boot',
    ],
    ['./run in a FastAPI project', ['./run'], { 'requirements.txt': 'fastapi==0.110\nuvicorn[standard]\n' }, 'uvicorn'],
    ['node server.js with express', ['node', 'server.js'], pkg({}, { express: '4' }), 'express'],
    [
      'npm run dev with an unknown script, express dependency',
      ['npm', 'run', 'dev'],
      pkg({ dev: 'node index.js' }, { express: '4' }),
      'express',
    ],
    [
      'node in a folder that also has manage.py: node wins over Python files',
      ['node', 'server.js'],
      { 'manage.py': '', ...pkg({}, { fastify: '4' }) },
      'express',
    ],
    ['nothing known', ['./start.sh'], {}, 'generic'],
    ['broken package.json', ['npm', 'run', 'dev'], { 'package.json': '{ nope' }, 'generic'],
  ])('%s → %s', (_name, argv, files, expected) => {
    const cwd = project(files);
    expect(detectFramework({ argv, cwd }).framework).toBe(expected);
  });

  it('the configured framework wins', () => {
    const cwd = project(pkg({ dev: 'vite' }));
    expect(detectFramework({ argv: ['npm', 'run', 'dev'], cwd, configured: 'remix' })).toEqual({
      framework: 'remix',
      reason: 'configured',
      isFromCommand: true,
    });
  });

  it('looks in the project root when the entry runs in a subfolder without package.json', () => {
    const projectDir = project(pkg({ dev: 'nuxt dev' }, { nuxt: '3' }));
    const cwd = join(projectDir, 'sub');
    mkdirSync(cwd);
    expect(detectFramework({ argv: ['npm', 'run', 'dev'], cwd, projectDir }).framework).toBe('nuxt');
  });

  it('says why', () => {
    const cwd = project(pkg({ dev: 'next dev' }));
    expect(detectFramework({ argv: ['npm', 'run', 'dev'], cwd }).reason).toBe('command: next dev');
  });
});

describe("whether the command is the detected framework's server", () => {
  it.each([
    ['the command names it', ['npx', 'vite'], pkg({}, { vite: '5' }), true],
    ['a dev script that runs it', ['npm', 'run', 'dev'], pkg({ dev: 'next dev' }), true],
    ['npm start with a framework dependency', ['npm', 'start'], pkg({ start: 'node index.js' }, { express: '4' }), true],
    ['a queue worker in a Vite project', ['bash', '-c', 'while true; do echo job; sleep 1; done'], pkg({}, { vite: '5' }), false],
    ['a migration script in a Django project', ['python3', 'migrate.py'], { 'manage.py': '' }, false],
    ['node worker.js in an express project', ['node', 'worker.js'], pkg({}, { express: '4' }), false],
    ['npm run migrate in a Next.js project', ['npm', 'run', 'migrate'], pkg({ migrate: 'node migrate.js' }, { next: '15' }), false],
  ])('%s → %s', (_name, argv, files, expected) => {
    const cwd = project(files);
    expect(detectFramework({ argv, cwd }).isFromCommand).toBe(expected);
  });
});

describe('resolveCommandLine', () => {
  const scripts = { scripts: { dev: 'vite --host', start: 'node server.js' } };
  it.each([
    [['npm', 'run', 'dev'], 'vite --host'],
    [['npm', 'run-script', 'dev'], 'vite --host'],
    [['npm', 'start'], 'node server.js'],
    [['yarn'], 'node server.js'],
    [['yarn', 'dev'], 'vite --host'],
    [['bun', 'run', 'dev'], 'vite --host'],
    [['pnpm', 'exec', 'vite'], 'vite'],
    [['npx', '--yes', 'vite'], 'vite'],
    [['npm', 'run', 'missing'], 'run missing'],
    [['/usr/bin/python3', 'manage.py', 'runserver'], 'python3 manage.py runserver'],
  ])('%j → %j', (argv, expected) => {
    expect(resolveCommandLine(argv, scripts)).toBe(expected);
  });
});
