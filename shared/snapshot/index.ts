// Public surface of the pure snapshot model (no DOM, no chrome.*): node types, renderer, filters, pages, diffs.
export * from './node.js';
export * from './escape.js';
export * from './render.js';
export * from './filter.js';
export * from './page.js';
export * from './diff.js';
