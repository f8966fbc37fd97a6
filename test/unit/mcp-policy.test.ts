// The person's tool policy on the MCP side (broker/mcp/server.ts): Oriel's own tools/list shows the compact form of
// each tool (broker/mcp/listing.ts) and leaves out disabled tools; a disabled tool called anyway answers
// operation_disabled as a tool result; a policy change reaches the client as notifications/tools/list_changed.
import { describe, expect, it } from 'vitest';
import { InMemoryTransport, ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { createMcpServer, type ServerEnvironment } from '../../broker/mcp/server.js';
import { TOOLS } from '../../broker/mcp/tools/index.js';
import { listedTool } from '../../broker/mcp/listing.js';
import { TOOL_SETS } from '../../broker/mcp/tools/sets.js';

function env(disabled: Set<string>): ServerEnvironment {
  return {
    clientId: 'c1',
    context: () => {
      throw new Error('no page calls in this test');
    },
    disabled: () => disabled,
  };
}

async function connect(server: McpServer, onListChanged?: () => void): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'policy-test', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  if (onListChanged) client.setNotificationHandler('notifications/tools/list_changed', onListChanged);
  await client.connect(clientSide);
  return client;
}

describe('tool policy on the MCP server', () => {
  it('lists the compact form of every tool when nothing is disabled, and still validates against the full schema', async () => {
    const client = await connect(createMcpServer(env(new Set())));
    expect((await client.listTools()).tools).toEqual(JSON.parse(JSON.stringify(TOOLS.map(listedTool))));
    // Bounds are not listed, yet enforced: a budget under snapshot's minimum is refused before any page call.
    const low = (await client.callTool({ name: 'snapshot', arguments: { max_chars: 10 } })) as { isError?: boolean; structuredContent?: { error?: { code: string; message: string } } };
    expect(low.isError).toBe(true);
    expect(low.structuredContent?.error?.code).toBe('invalid_argument');
    expect(low.structuredContent?.error?.message).toContain('max_chars');
    // Common arguments a tool does not list are still accepted (list_sessions lists none).
    const sessions = (await client.callTool({ name: 'list_sessions', arguments: { session: 'x' } })) as { isError?: boolean; structuredContent?: { error?: { code: string } } };
    expect(sessions.structuredContent?.error?.code).not.toBe('invalid_argument');
  });

  it('hides a disabled tool, refuses it with operation_disabled, and tells the client when the policy changes', async () => {
    const disabled = new Set<string>();
    const server = createMcpServer(env(disabled));
    let changes = 0;
    const client = await connect(server, () => void changes++);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('evaluate');
    disabled.add('evaluate');
    server.sendToolListChanged();
    await expect.poll(() => changes).toBe(1);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('evaluate');
    expect(names).toContain('snapshot');
    const called = (await client.callTool({ name: 'evaluate', arguments: { expression: '1' } })) as { isError?: boolean; structuredContent?: { error?: { code: string } } };
    expect(called.isError).toBe(true);
    expect(called.structuredContent?.error?.code).toBe('operation_disabled');
  });

  it('answers a tool name every object inherits (__proto__, constructor) as unknown, not as disabled', async () => {
    const client = await connect(createMcpServer(env(new Set())));
    for (const name of ['__proto__', 'constructor', 'toString', 'no_such_tool']) {
      const refused = await client.callTool({ name, arguments: {} }).then(() => undefined, (err: unknown) => err as Error);
      expect(refused?.message, name).toContain(`Tool ${JSON.stringify(name)} not found`);
      expect(refused?.message, name).toContain('call_tab_operation');
      expect(refused?.message, name).not.toContain('disabled');
    }
    // Oriel's own tools still reach their handlers.
    const sessions = (await client.callTool({ name: 'list_sessions', arguments: {} })) as { structuredContent?: { error?: { code: string } } };
    expect(sessions.structuredContent?.error?.code).not.toBe('invalid_argument');
  });

  it('answers an Oriel tool left out of the chosen set (--tools) as not served, saying how to get it, in the unknown-tool shape', async () => {
    const core = TOOLS.filter((t) => (TOOL_SETS.core as readonly string[]).includes(t.name));
    const client = await connect(createMcpServer(env(new Set()), core));
    const refused = await client.callTool({ name: 'evaluate', arguments: { expression: '1' } }).then(() => undefined, (err: unknown) => err as ProtocolError);
    // The JSON-RPC error the SDK gives an unknown tool (Invalid Params); only the words differ.
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused?.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(refused?.message).toContain('Tool "evaluate" is not served to this client: it is an Oriel tool');
    expect(refused?.message).toContain('--tools');
    expect(refused?.message).toContain('a set that has it: exec');
    expect(refused?.message).toContain('oriel config <client>');
    expect(refused?.message).not.toContain('no tool of that name');
    // A name Oriel does not have is still unknown on the same connection.
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(() => undefined, (err: unknown) => err as ProtocolError);
    expect(unknown?.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(unknown?.message).toContain('Oriel has no tool of that name');
  });
});
