import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests talk to real servers on loopback; keep the 2-core CI machine from thrashing.
    maxWorkers: 2,
  },
});
