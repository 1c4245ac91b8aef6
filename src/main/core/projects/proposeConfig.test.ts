import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { proposeConfig } from './proposeConfig';
import type { ProposedEntry } from '../../../shared/proposal';

const LAYOUTS = join(__dirname, '../../../../test/fixtures/projects');
const onPath = (...commands: string[]) => ({ isOnPath: (c: string) => commands.includes(c) });

/** `[x] name: command args… (cwd)` — the shape a person reads in the proposal list. */
function summary(entries: readonly ProposedEntry[]): string[] {
  return entries.map((e) => {
    const tick = e.selected ? '[x]' : '[ ]';
    if (e.section === 'agents') return `${tick} agent ${e.name}: ${e.config.preset}`;
    const line = [e.config.command, ...(e.config.args ?? [])].join(' ');
    return `${tick} ${e.name}: ${line}${e.config.cwd ? ` (${e.config.cwd})` : ''}${e.config.port ? ` port ${e.config.port}` : ''}`;
  });
}

describe('proposeConfig over project layouts', () => {
  const table: Array<{ layout: string; path: string[]; expected: string[] }> = [
    {
      layout: 'next-app (create-next-app scripts)',
      path: ['next-app'],
      expected: ['[x] dev: npm run dev', '[ ] start: npm run start'],
    },
    {
      layout: 'Vite + Express monorepo with npm workspaces',
      path: ['vite-express-workspaces'],
      expected: ['[x] api: npm run dev (apps/api)', '[ ] api-start: npm run start (apps/api)', '[x] web: npm run dev (apps/web)'],
    },
    {
      layout: 'Django (wagtail/bakerydemo): runserver ticked, the production Procfile and compose services not',
      path: ['bakerydemo'],
      expected: [
        '[x] django: python3 manage.py runserver',
        '[ ] web: uwsgi ./etc/uwsgi.ini',
        '[ ] db: docker compose up db',
        '[ ] redis: docker compose up redis',
        '[ ] app: docker compose up app port 8000',
      ],
    },
    {
      layout: 'Rails with Procfile.dev (maybe-finance/maybe): no second Rails server',
      path: ['maybe'],
      expected: [
        '[x] web: bundle exec ${DEBUG:+rdbg -O -n -c --} bin/rails server -b 0.0.0.0',
        '[x] css: bundle exec bin/rails tailwindcss:watch 2>/dev/null',
        '[x] worker: bundle exec sidekiq',
      ],
    },
    {
      layout: 'Laravel (laravel/laravel): Vite and artisan serve',
      path: ['laravel'],
      expected: ['[x] dev: npm run dev', '[x] laravel: php artisan serve'],
    },
    {
      layout: 'yarn workspaces monorepo (excalidraw/excalidraw): the root script wins over the packages',
      path: ['excalidraw'],
      expected: [
        '[x] start: yarn run start',
        '[ ] excalidraw-app: yarn run start (excalidraw-app)',
        '[ ] excalidraw-app-serve: yarn run serve (excalidraw-app)',
        '[ ] with-nextjs: yarn run dev (examples/with-nextjs)',
        '[ ] with-nextjs-start: yarn run start (examples/with-nextjs)',
        '[ ] with-script-in-browser: yarn run start (examples/with-script-in-browser)',
        '[ ] excalidraw: docker compose up excalidraw port 3000',
      ],
    },
    {
      layout: 'docker compose only: the first service is ticked, published host ports become readiness ports',
      path: ['compose-only'],
      expected: [
        '[x] web: docker compose up web port 8080',
        '[ ] db: docker compose up db port 5432',
        '[ ] cache: docker compose up cache',
      ],
    },
  ];
  for (const { layout, path, expected } of table) {
    it(layout, () => {
      const proposal = proposeConfig(join(LAYOUTS, ...path), onPath('python3', 'docker'));
      expect(proposal.hasConfig).toBe(false);
      expect(summary(proposal.entries)).toEqual(expected);
    });
  }

  it('proposes an agent entry for every agent CLI on PATH, ticked, and none for missing ones', () => {
    const proposal = proposeConfig(join(LAYOUTS, 'next-app'), onPath('claude', 'codex'));
    expect(summary(proposal.entries.filter((e) => e.section === 'agents'))).toEqual(['[x] agent claude: claude', '[x] agent codex: codex']);
  });

  it('prefers `python` for Django when it is on PATH', () => {
    const proposal = proposeConfig(join(LAYOUTS, 'bakerydemo'), onPath('python'));
    expect(summary(proposal.entries)[0]).toBe('[x] django: python manage.py runserver');
  });

  it('proposes nothing when the folder already has a switchboard.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-propose-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { dev: 'vite' } }));
    writeFileSync(join(dir, 'switchboard.json'), '{}');
    expect(proposeConfig(dir, onPath())).toEqual({ projectDir: dir, hasConfig: true, entries: [] });
  });

  it('survives malformed manifests: broken JSON, YAML and an unreadable workspace list', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-propose-'));
    writeFileSync(join(dir, 'package.json'), '{ "scripts": { "dev": ');
    writeFileSync(join(dir, 'docker-compose.yml'), 'services: [unclosed');
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), 'packages: 42');
    writeFileSync(join(dir, 'Procfile.dev'), '# only a comment\nnot a process line\nweb: ./bin/serve\n');
    expect(summary(proposeConfig(dir, onPath()).entries)).toEqual(['[x] web: ./bin/serve']);
  });

  it('reads pnpm workspaces and names clashing entries apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-propose-'));
    writeFileSync(join(dir, 'pnpm-lock.yaml'), '');
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), "packages:\n  - 'apps/*'\n  - '!apps/ignored'\n");
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'root' }));
    writeFileSync(join(dir, 'Procfile.dev'), 'web: ./bin/other-web\n');
    mkdirSync(join(dir, 'apps/web'), { recursive: true });
    writeFileSync(join(dir, 'apps/web/package.json'), JSON.stringify({ scripts: { dev: 'vite' } }));
    expect(summary(proposeConfig(dir, onPath()).entries)).toEqual(['[x] web: ./bin/other-web', '[x] web-2: pnpm run dev (apps/web)']);
  });

  it('offers Makefile server targets unticked, ticking the first only when nothing else was found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-propose-'));
    writeFileSync(join(dir, 'Makefile'), 'VAR := 1\nbuild:\n\tgo build\nserve: build\n\t./app\nwatch:\n\tair\n');
    expect(summary(proposeConfig(dir, onPath()).entries)).toEqual(['[x] make-serve: make serve', '[ ] make-watch: make watch']);
  });
});
