import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Real PTYs, real servers and real agent CLIs: generous per-test limits, no retries.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two files at a time keeps real-program tests from starving each other.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default'],
  },
});
