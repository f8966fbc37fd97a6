// Test runner settings: unit tests are quick; e2e tests drive real browsers, so they run one file at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    // Under CI, a failed test runs once more: real browsers on a loaded 2-core machine have timing noise. A broken
    // behaviour still fails both runs; the report lists every retry.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default'],
  },
});
