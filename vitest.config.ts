// Test runner settings: unit tests are quick; e2e tests drive real browsers, so they run one file at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    reporters: ['default'],
  },
});
