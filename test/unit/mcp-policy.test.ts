// The person's tool policy on the MCP side (broker/mcp/server.ts): Oriel's own tools/list matches what the SDK would
// list, leaves out disabled tools, and a disabled tool called anyway answers operation_disabled as a tool result; a
// policy change reaches the client as notifications/tools/list_changed.
import { describe, expect, it } from 'vitest';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { createMcpServer, type ServerEnvironment } from '../../broker/mcp/server.js';
import { TOOLS } from '../../broker/mcp/tools/index.js';
import { COMMON_ARGS } from '../../broker/mcp/server.js';

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
  it('lists exactly what the SDK would list when nothing is disabled', async () => {
    const plain = new McpServer({ name: 'plain', version: '1' });
    for (const def of TOOLS) {
      plain.registerTool(def.name, { title: def.title, description: def.description, inputSchema: def.input.extend(COMMON_ARGS), annotations: { title: def.title, ...def.annotations } }, () => ({ content: [] }));
    }
    const sdk = await (await connect(plain)).listTools();
    const ours = await (await connect(createMcpServer(env(new Set())))).listTools();
    expect(ours.tools).toEqual(sdk.tools);
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
});
