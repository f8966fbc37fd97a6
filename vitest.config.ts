// Test runner settings: unit tests are quick; e2e tests drive real browsers, so they run one file at a time.
import { defineConfig } from 'vitest/config';

/**
 * Files that spend much of their time waiting on the clock (a client's 60 s request timeout, permission prompts held
 * open past a call's budget or answered late, lease TTLs, a browser restarting) rather than working.
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

/**
 * Files that mostly wait on the browser (two measured alone kept 0.7 and 0.9 of one core busy), chosen so that the two
 * runners take about as long (per-file times of a CI run, 2026-12-02: these about 420 s, the waiting files 515 s,
 * the rest about 1,200 s).
 */
const BALANCE_FILES = [
  'test/e2e/dialogs-unexpected.test.ts',
  'test/e2e/actions-background.test.ts',
  'test/e2e/page-tools-navigator.test.ts',
  'test/e2e/result-links.test.ts',
  'test/e2e/footprint.test.ts',
  'test/e2e/downloads.test.ts',
  'test/e2e/bridge.test.ts',
  'test/e2e/consent-exec.test.ts',
  'test/e2e/consent-navigation.test.ts',
  'test/e2e/consent-listing.test.ts',
];

/**
 * The `beside` project: the waiting files and the balance files. Every other file is the `main` project. `npx vitest
 * run` runs both, one file at a time; `npm test` (scripts/test.sh) runs the two projects in two runners side by side,
 * so the waits overlap the rest of the suite instead of adding to it. Each project still runs one file at a time, so
 * at most two browsers run at once.
 */
const BESIDE = [...WAITING_FILES, ...BALANCE_FILES];

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
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: BESIDE } },
      { extends: true, test: { name: 'beside', include: BESIDE } },
    ],
  },
});
