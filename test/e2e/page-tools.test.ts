// Tools a page registers (WebMCP) where the browser has no page API of its own — Chromium as shipped, Firefox — so
// Oriel's MAIN-world API provides document.modelContext: listed, called, checked, bounded (./page-tools-suite.ts).
import { BROWSERS } from './harness.js';
import { pageToolsSuite } from './page-tools-suite.js';

for (const kind of BROWSERS) pageToolsSuite({ kind, provider: 'oriel' });
