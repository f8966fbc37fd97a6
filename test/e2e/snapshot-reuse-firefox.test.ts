// The randomized warm-versus-fresh snapshot test (test/e2e/snapshot-reuse-suite.ts) in Firefox, one browser per file.
import { BROWSERS } from './harness.js';
import { reuseSuite } from './snapshot-reuse-suite.js';
import { describe, it } from 'vitest';

if (BROWSERS.includes('firefox')) reuseSuite('firefox');
else describe.skip('warm snapshots against fresh ones in firefox', () => it('is not run: ORIEL_TEST_BROWSERS leaves firefox out', () => undefined));
