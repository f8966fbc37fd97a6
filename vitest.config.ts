// Test runner settings: unit tests are quick; e2e tests drive real browsers, so they run one file at a time.
import { defineConfig } from 'vitest/config';

/**
 * Files that spend much of their time waiting on the clock (a client's 60 s request timeout, permission prompts held
 * open past a call's budget or answered late, lease TTLs, a browser restarting) rather than working. They form
 * the `waits` project; every other file is the `work` project. `npx vitest run` runs both, one file at a time; `npm
 * test` (scripts/test.sh) runs the two projects in two runners side by side, so these waits overlap the rest of the
 * suite instead of adding to it. Each project still runs one file at a time, so at most two browsers run at once.
 */
export const WAITING_FILES = [
  'test/e2e/clients-timeouts.test.ts',
  'test/e2e/consent-resumed.test.ts',
  'test/e2e/consent-prompts.test.ts',
  'test/e2e/consent-policy.test.ts',
  'test/e2e/consent-hostile.test.ts',
  'test/e2e/consent-app.test.ts',
  'test/e2e/leases.test.ts',
  'test/e2e/restart.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    // Under CI, a failed test runs once more: real browsers on a loaded 2-core machine have timing noise. A broken
    // behaviour still fails both runs; the report lists every retry.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'work', include: ['test/**/*.test.ts'], exclude: WAITING_FILES } },
      { extends: true, test: { name: 'waits', include: WAITING_FILES } },
    ],
  },
});
