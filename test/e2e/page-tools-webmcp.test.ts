// Tools a page registers in Chromium with its own WebMCP enabled (`--enable-features=WebMCP`): the page uses the
// browser's document.modelContext and Oriel uses the browser's agent side (getTools, executeTool) — the same tests as
// page-tools.test.ts (./page-tools-suite.ts).
import { describe } from 'vitest';
import { BROWSERS } from './harness.js';
import { pageToolsSuite } from './page-tools-suite.js';

describe.runIf(BROWSERS.includes('chromium'))('Chromium with WebMCP', () => {
  pageToolsSuite({ kind: 'chromium', provider: 'browser', chromiumArgs: ['--enable-features=WebMCP'] });
});
