// The layer rules of eslint.config.js bite: an import across a forbidden boundary is an error, an allowed one is not.
// `npm test` runs eslint on the whole tree; this file proves the rules it runs would catch a violation.
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** Lints one import line as if it were a file at `file` (relative to the repository root); returns the layer messages. */
async function layerErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    ['shared/x.ts', "import { Hub } from '../broker/hub/hub.js';"],
    ['shared/x.ts', "import fs from 'node:fs';"],
    ['broker/hub/x.ts', "import { serveClient } from '../mcp/connection.js';"],
    ['broker/hub/x.ts', "import { McpServer } from '@modelcontextprotocol/server';"],
    ['broker/native-host/x.ts', "import { createMcpServer } from '../mcp/server.js';"],
    ['broker/common/x.ts', "import { Hub } from '../hub/hub.js';"],
    ['broker/mcp/tools/x.ts', "import { Hub } from '../../hub/hub.js';"],
    ['broker/cli/x.ts', "import { McpServer } from '@modelcontextprotocol/server';"],
    ['extension/content/x.ts', "import { runCall } from '../background/pipeline/index.js';"],
    ['extension/background/x.ts', "import { Walker } from '../content/snapshot/walk.js';"],
    ['extension/ui/x.ts', "import { runCall } from '../background/pipeline/index.js';"],
    ['extension/main/x.ts', "import { currentRegistry } from '../content/document.js';"],
    ['extension/main/x.ts', "import { OPS } from '../../shared/ops.js';"],
    ['extension/x.ts', "import { runHub } from '../broker/hub/server.js';"],
    ['extension/consent/x.ts', "import { runCall } from '../background/pipeline/index.js';"],
  ])('%s may not: %s', async (file, source) => {
    const errors = await layerErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Layer rule/);
  });

  it.each([
    ['broker/mcp/x.ts', "import type { Hub } from '../hub/hub.js';"],
    ['broker/mcp/x.ts', "import { McpServer } from '@modelcontextprotocol/server';"],
    ['broker/native-host/x.ts', "import { connectHub } from '../hub/spawn.js';"],
    ['broker/cli/x.ts', "import { runHub } from '../hub/server.js';"],
    ['extension/background/x.ts', "import { OPS } from '../../shared/ops.js';"],
    ['extension/content/x.ts', "import { readSettings } from '../settings.js';"],
    ['extension/main/x.ts', "import { WEBMCP_LIST } from '../../shared/page-channel.js';"],
    ['extension/ui/x.ts', "import { decide } from '../consent/rules.js';"],
  ])('%s may: %s', async (file, source) => {
    expect(await layerErrors(file, source)).toEqual([]);
  });
});
