// Tool definitions as the model reads them: bounded descriptions that name the alternative, truthful annotations,
// flat described inputs, and docs/tools.md generated from them.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TOOLS } from '../../broker/mcp/tools/index.js';
import { ERROR_CODES } from '../../shared/errors.js';
import { isOpName, OPS } from '../../shared/ops.js';
import { renderToolsDoc, withErrorTable } from '../../scripts/tools-doc.js';

/** Longest description a tool may have, in characters (a model reads every one on every turn). */
const MAX_DESCRIPTION = 700;

describe('tool definitions', () => {
  it('have unique snake_case names', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  for (const tool of TOOLS) {
    it(`${tool.name}: bounded description that names another tool to use instead`, () => {
      expect(tool.description.length).toBeGreaterThan(80);
      expect(tool.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
      const others = TOOLS.filter((t) => t !== tool).map((t) => t.name);
      expect(others.some((o) => new RegExp(`\\b${o}\\b`).test(tool.description))).toBe(true);
    });

    it(`${tool.name}: every argument is described and the schema is flat`, () => {
      const schema = z.toJSONSchema(tool.input) as { properties?: Record<string, { description?: string; type?: string; properties?: object }> };
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        expect(prop.description, `${tool.name}.${name}`).toBeTruthy();
        // A string→string map (column → selector) is fine; an object with its own fields is nesting.
        if (prop.type === 'object' && prop.properties) expect.fail(`${tool.name}.${name} is a nested object`);
      }
    });

    it(`${tool.name}: annotations agree with what it needs`, () => {
      if (tool.annotations.readOnlyHint) {
        expect(tool.annotations.destructiveHint).toBe(false);
        expect(['none', 'read']).toContain(tool.capability);
      } else if (tool.capability === 'none') {
        // A hub-only tool that changes the hub's state (a lease), never the page.
        expect(tool.annotations.destructiveHint).toBe(false);
        expect(tool.annotations.openWorldHint).toBe(false);
      } else expect(['act', 'exec']).toContain(tool.capability);
    });
  }

  it('docs/tools.md is generated from the current definitions', () => {
    const file = path.resolve(import.meta.dirname, '../../docs/tools.md');
    expect(readFileSync(file, 'utf8')).toBe(renderToolsDoc());
  });

  it('the error table of docs/native-messaging.md is generated from shared/errors.ts', () => {
    const file = path.resolve(import.meta.dirname, '../../docs/native-messaging.md');
    const doc = readFileSync(file, 'utf8');
    expect(doc).toBe(withErrorTable(doc));
    for (const code of ERROR_CODES) expect(doc).toContain(`| \`${code}\` |`);
  });

  it('each tool declares the capability of the operation it calls', () => {
    for (const tool of TOOLS) {
      if (isOpName(tool.name) && OPS[tool.name].public) expect(tool.capability, tool.name).toBe(OPS[tool.name].capability);
    }
  });
});
