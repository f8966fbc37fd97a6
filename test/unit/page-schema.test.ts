// The broker's check of an agent's arguments against a page tool's schema (broker/mcp/page-schema.ts): valid arguments
// pass, invalid ones are refused naming where and why, hostile schemas (exponential patterns, lookaround, deep nesting,
// oversize, remote references, ids claimed twice) cannot stall or poison the checker.
import { describe, expect, it } from 'vitest';
import { cachedSchemas, checkPageArguments } from '../../broker/mcp/page-schema.js';
import { OrielError } from '../../shared/errors.js';
import { PAGE_TOOL_LIMITS } from '../../shared/page-tools.js';

const check = (schema: unknown, args: Record<string, unknown>) => {
  try {
    checkPageArguments('t', JSON.stringify(schema), args);
    return 'ok';
  } catch (e) {
    return `${(e as OrielError).code}: ${(e as OrielError).message}`;
  }
};

const cart = { type: 'object', properties: { product_id: { type: 'string', pattern: '^kb-[0-9]+$' }, qty: { type: 'integer', minimum: 1 } }, required: ['product_id'] };

describe('checkPageArguments', () => {
  it('passes arguments that match and refuses ones that do not, saying where and why', () => {
    expect(check(cart, { product_id: 'kb-3', qty: 2 })).toBe('ok');
    expect(check(cart, { product_id: 'nope' })).toMatch(/^invalid_argument: .*\/product_id must match pattern/);
    expect(check(cart, { qty: 2 })).toMatch(/^invalid_argument: .*must have required property 'product_id'/);
    expect(check(cart, { product_id: 'kb-1', qty: 0 })).toMatch(/\/qty must be >= 1/);
    expect(check({ ...cart, additionalProperties: false }, { product_id: 'kb-1', coupon: 'x' })).toMatch(/must NOT have additional properties \("coupon"\)/);
  });

  it('keeps each pattern apart (patterns are cached by their text)', () => {
    expect(check({ type: 'object', properties: { a: { type: 'string', pattern: '^a$' } } }, { a: 'a' })).toBe('ok');
    expect(check({ type: 'object', properties: { a: { type: 'string', pattern: '^b$' } } }, { a: 'a' })).toMatch(/must match pattern "\^b\$"/);
  });

  it('runs an exponential-backtracking pattern in linear time (RE2)', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    const started = performance.now();
    expect(check(schema, { s: `${'a'.repeat(5_000)}!` })).toMatch(/^invalid_argument/);
    // With a backtracking engine this input would not finish in any human time; RE2 needs milliseconds.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('refuses schemas it cannot check safely: lookaround, remote references, too deep, too large, not a schema', () => {
    expect(check({ type: 'object', properties: { s: { type: 'string', pattern: '(?=a)a' } } }, { s: 'a' })).toMatch(/^unsupported: .*cannot be used/);
    expect(check({ $ref: 'https://example.com/schema.json' }, {})).toMatch(/^unsupported/);
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { x: deep } };
    expect(check(deep, {})).toMatch(/^unsupported: .*nests deeper/);
    expect(check({ type: 'object', description: 'x'.repeat(PAGE_TOOL_LIMITS.schemaBytes) }, {})).toMatch(/^unsupported: .*over 16384 bytes/);
    expect(check([1, 2], {})).toMatch(/^unsupported: .*not a JSON Schema object/);
    const wide = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`p${i}`, { type: 'integer' }]));
    expect(check({ type: 'object', properties: wide }, {})).toMatch(/^unsupported: .*more than 128 subschemas/);
  });

  it('refuses arguments over the bound before checking them', () => {
    expect(check({ type: 'object' }, { s: 'x'.repeat(PAGE_TOOL_LIMITS.argumentsBytes) })).toMatch(/^too_large/);
  });

  it('lets two pages claim the same $id without one poisoning the other', () => {
    expect(check({ $id: 'https://shop.test/cart', type: 'object', required: ['a'] }, { a: 1 })).toBe('ok');
    expect(check({ $id: 'https://shop.test/cart', type: 'object', required: ['b'] }, { a: 1 })).toMatch(/required property 'b'/);
  });

  it('reads draft-07 schemas as draft-07 (tuple items) and others as 2020-12 (prefixItems)', () => {
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } };
    expect(check(draft07, { t: ['a', 1] })).toBe('ok');
    expect(check(draft07, { t: ['a', 'b'] })).toMatch(/\/t\/1 must be number/);
    expect(check({ type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } }, { t: [1] })).toMatch(/\/t\/0 must be string/);
  });

  it('stays bounded: compiling many distinct schemas does not keep them all', () => {
    for (let i = 0; i < 500; i++) expect(check({ type: 'object', properties: { [`k${i}`]: { type: 'string', pattern: `^${i}$` } } }, { [`k${i}`]: String(i) })).toBe('ok');
    expect(cachedSchemas()).toBeLessThanOrEqual(64);
  });
});
