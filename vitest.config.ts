import { defineConfig } from 'vitest/config';

/** Units that vi.mock a module are named `*.mock.test.ts` (test/conventions/mockedUnits.test.ts holds them to it). */
const MOCKED_UNITS = 'src/**/*.mock.test.ts';

export default defineConfig({
  test: {
    environment: 'node',
    // Real PTYs, real servers and real agent CLIs: generous per-test limits, no retries.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two files at a time keeps real-program tests from starving each other.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default'],
    projects: [
      // The units beside the code. `npm run test:unit` runs them with --no-isolate: a worker imports
      // the core once, not once per file, which halves their time (192 s → 97 s on two cores). They
      // own no process-wide state that outlives a file (timers, env and spies are restored).
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: [MOCKED_UNITS] } },
      // Units that replace a module (vi.mock) need a module registry of their own: one shared with
      // other files would hand them, or those files, the wrong module.
      { extends: true, test: { name: 'mocked', include: [MOCKED_UNITS] } },
      // Live tests start real programs, servers and cores: each file gets a fresh process.
      { extends: true, test: { name: 'live', include: ['test/**/*.test.ts'] } },
    ],
  },
});
