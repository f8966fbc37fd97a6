// Lint rules: typescript-eslint's recommended set, plus the layer rules — which folder may import which — checked by
// `npm test` (test/unit/layers.test.ts proves each rule bites). docs/architecture.md explains the layers.
import tseslint from 'typescript-eslint';

/** The MCP server SDK: only broker/mcp/server.ts and the transports (connection.ts, http.ts) may import it. */
const MCP_SERVER_SDK = ['@modelcontextprotocol/server', '@modelcontextprotocol/server/*', '@modelcontextprotocol/node', '@modelcontextprotocol/node/*'];

/**
 * Folder → what its files must not import. A file takes the rule of the most specific folder that names it (later
 * entries win in flat config), so each entry repeats what its parent forbids.
 */
const LAYERS = [
  { files: ['shared/**/*.ts'], patterns: ['**/extension/**', '**/broker/**', 'node:*'], why: 'shared/ is pure TypeScript used by both sides' },
  { files: ['extension/**/*.ts'], patterns: ['**/broker/**', 'node:*'], why: 'the extension runs in the browser' },
  { files: ['extension/content/**/*.ts'], patterns: ['**/broker/**', 'node:*', '**/background/**', '**/ui/**'], why: 'content scripts talk to the background by messages only' },
  { files: ['extension/background/**/*.ts'], patterns: ['**/broker/**', 'node:*', '**/content/**', '**/ui/**'], why: 'the background talks to content scripts and pages by messages only' },
  {
    files: ['extension/main/**/*.ts'],
    patterns: ['**/broker/**', 'node:*', '**/content/**', '**/background/**', '**/ui/**', '**/shared/**', '!**/shared/page-channel.js', 'zod'],
    why: "the MAIN-world script runs in every page with the page's privileges: it talks to the content script by events only, and imports nothing but shared/page-channel.ts so it stays small",
  },
  { files: ['extension/consent/**/*.ts'], patterns: ['**/broker/**', 'node:*', '**/content/**', '**/background/**', '**/ui/**'], why: 'the consent rules are pure data and judgement, shared by the background and the extension pages' },
  { files: ['extension/ui/**/*.ts'], patterns: ['**/broker/**', 'node:*', '**/content/**', '**/background/**'], why: 'extension pages talk to the background by messages only' },
  { files: ['broker/**/*.ts'], patterns: ['**/extension/**', ...MCP_SERVER_SDK], why: 'only broker/mcp speaks MCP' },
  { files: ['broker/common/**/*.ts'], patterns: ['**/extension/**', ...MCP_SERVER_SDK, '**/hub/**', '**/mcp/**', '**/native-host/**', '**/cli/**'], why: 'common code serves every broker folder' },
  { files: ['broker/hub/**/*.ts'], patterns: ['**/extension/**', ...MCP_SERVER_SDK, '**/mcp/**', '**/native-host/**', '**/cli/**'], why: 'the hub never knows who serves its clients' },
  { files: ['broker/native-host/**/*.ts'], patterns: ['**/extension/**', ...MCP_SERVER_SDK, '**/mcp/**', '**/cli/**'], why: 'the native host only relays frames' },
  { files: ['broker/mcp/**/*.ts'], patterns: ['**/extension/**', '**/native-host/**', '**/cli/**'], why: 'MCP connections reach the hub, not the other relays' },
  { files: ['broker/mcp/tools/**/*.ts'], patterns: ['**/extension/**', '**/native-host/**', '**/cli/**', '**/hub/**', ...MCP_SERVER_SDK], why: 'tools see only their ToolContext' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', '.cache/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...LAYERS.map(({ files, patterns, why }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message: `Layer rule: ${why} (docs/architecture.md).` }] }] },
  })),
);
