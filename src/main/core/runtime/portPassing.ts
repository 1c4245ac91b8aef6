/**
 * How to tell each known dev server which port to listen on, as data (docs/runtime.md). A row
 * gives the flags appended to the server's own command line and/or the environment it reads, with
 * `{port}` standing for the instance's port, the port it takes when told nothing, and where that
 * comes from (the tool's documented CLI or source, and the version it was read in). A new version's
 * flag is a table edit, tested by portPassing.test.ts.
 */
import type { FrameworkId } from '../../../shared/ready';

export interface PortPassingRule {
  framework: FrameworkId;
  /** Appended to the server's command line ("--port", "{port}"). */
  args?: readonly string[];
  /** Set in the server's environment ({ PORT: "{port}" }). */
  env?: Readonly<Record<string, string>>;
  /** Flags that already choose a port on the command line: another instance must not keep them. */
  portFlags: readonly string[];
  /** Where the server listens when told nothing. */
  defaultPort: number;
  source: string;
  version: string;
}

/** Vite's CLI, also what SvelteKit, Remix (Vite) and Astro's underlying server accept. */
const VITE_ARGS = ['--port', '{port}', '--strictPort'] as const;

export const PORT_PASSING_RULES: readonly PortPassingRule[] = [
  {
    framework: 'vite',
    args: VITE_ARGS,
    portFlags: ['--port'],
    defaultPort: 5173,
    source: 'vite.dev/guide/cli: `--port <port>`, `--strictPort` (exit if the port is in use instead of trying the next)',
    version: 'vite 7',
  },
  {
    framework: 'sveltekit',
    args: VITE_ARGS,
    portFlags: ['--port'],
    defaultPort: 5173,
    source: 'svelte.dev/docs/kit/cli: `vite dev` is the dev server, Vite CLI flags apply',
    version: '@sveltejs/kit 2',
  },
  {
    framework: 'remix',
    args: VITE_ARGS,
    portFlags: ['--port'],
    defaultPort: 5173,
    source: 'remix.run/docs/en/main/other-api/dev: `remix vite:dev` takes Vite CLI flags',
    version: '@remix-run/dev 2',
  },
  {
    framework: 'nextjs',
    args: ['-p', '{port}'],
    portFlags: ['-p', '--port'],
    defaultPort: 3000,
    source: 'nextjs.org/docs/app/api-reference/cli/next: `next dev -p, --port <port>` (default 3000, or PORT)',
    version: 'next 16',
  },
  {
    framework: 'nuxt',
    args: ['--port', '{port}'],
    portFlags: ['--port', '-p'],
    defaultPort: 3000,
    source: 'nuxt.com/docs/api/commands/dev: `nuxi dev --port, -p` (also NUXT_PORT / PORT)',
    version: 'nuxi 3',
  },
  {
    framework: 'astro',
    args: ['--port', '{port}'],
    portFlags: ['--port'],
    defaultPort: 4321,
    source: 'docs.astro.build/en/reference/cli-reference: `astro dev --port <number>`',
    version: 'astro 5',
  },
  {
    framework: 'angular',
    args: ['--port', '{port}'],
    portFlags: ['--port'],
    defaultPort: 4200,
    source: 'angular.dev/cli/serve: `ng serve --port` (default 4200)',
    version: '@angular/cli 19',
  },
  {
    framework: 'cra',
    env: { PORT: '{port}' },
    portFlags: [],
    defaultPort: 3000,
    source: 'create-react-app.dev/docs/advanced-configuration: `PORT` sets the development server port',
    version: 'react-scripts 5',
  },
  {
    framework: 'vue-cli',
    args: ['--port', '{port}'],
    portFlags: ['--port'],
    defaultPort: 8080,
    source: 'cli.vuejs.org/guide/cli-service: `vue-cli-service serve --port`',
    version: '@vue/cli-service 5',
  },
  {
    framework: 'webpack-dev-server',
    args: ['--port', '{port}'],
    portFlags: ['--port'],
    defaultPort: 8080,
    source: 'webpack.js.org/configuration/dev-server/#devserverport: `npx webpack serve --port 8080`',
    version: 'webpack-dev-server 5',
  },
  {
    framework: 'gatsby',
    args: ['-p', '{port}'],
    portFlags: ['-p', '--port'],
    defaultPort: 8000,
    source: 'gatsbyjs.com/docs/reference/gatsby-cli: `gatsby develop -p, --port` (default 8000)',
    version: 'gatsby 5',
  },
  {
    framework: 'storybook',
    args: ['-p', '{port}'],
    portFlags: ['-p', '--port'],
    defaultPort: 6006,
    source: 'storybook.js.org/docs/api/cli-options: `storybook dev -p, --port <number>`',
    version: 'storybook 8',
  },
  {
    framework: 'parcel',
    args: ['--port', '{port}'],
    portFlags: ['--port', '-p'],
    defaultPort: 1234,
    source: 'parceljs.org/features/cli: `--port, -p` (default 1234, or PORT)',
    version: 'parcel 2',
  },
  {
    framework: 'django',
    args: ['127.0.0.1:{port}'],
    portFlags: [],
    defaultPort: 8000,
    source: 'docs.djangoproject.com/en/5.2/ref/django-admin/#runserver: `runserver [addrport]`, e.g. 127.0.0.1:8001',
    version: 'django 5.2',
  },
  {
    framework: 'flask',
    args: ['--port', '{port}'],
    portFlags: ['--port', '-p'],
    defaultPort: 5000,
    source: 'flask.palletsprojects.com/en/stable/cli: `flask run --port` (-p; FLASK_RUN_PORT)',
    version: 'flask 3.1',
  },
  {
    framework: 'uvicorn',
    args: ['--port', '{port}'],
    portFlags: ['--port'],
    defaultPort: 8000,
    source: 'uvicorn.org/settings: `--port <int>` (default 8000); `fastapi dev/run --port` the same',
    version: 'uvicorn 0.32',
  },
  {
    framework: 'rails',
    args: ['-p', '{port}'],
    portFlags: ['-p', '--port'],
    defaultPort: 3000,
    source: 'guides.rubyonrails.org/command_line.html#bin-rails-server: `bin/rails server -p 3001`; puma and rackup take -p too',
    version: 'rails 8',
  },
  {
    framework: 'phoenix',
    env: { PORT: '{port}' },
    portFlags: [],
    defaultPort: 4000,
    source: 'phx.new template config/dev.exs: `port: String.to_integer(System.get_env("PORT") || "4000")`',
    version: 'phoenix 1.7',
  },
  {
    framework: 'laravel',
    args: ['--port={port}'],
    portFlags: ['--port'],
    defaultPort: 8000,
    source: 'laravel.com/docs/12.x/installation: `php artisan serve --port=8080`',
    version: 'laravel 12',
  },
  {
    framework: 'spring-boot',
    env: { SERVER_PORT: '{port}' },
    portFlags: [],
    defaultPort: 8080,
    source: 'docs.spring.io/spring-boot/how-to/webserver.html: `server.port`, bound from SERVER_PORT',
    version: 'spring-boot 3',
  },
];

export function portPassingRuleFor(framework: FrameworkId): PortPassingRule | undefined {
  return PORT_PASSING_RULES.find((rule) => rule.framework === framework);
}
