import { z } from 'zod';
import { defineTool, type McpTool } from './mcp-tool';
import { batchRefusal, parseReadOnlyHeader, toolsForConnection } from './mcp-tools';

const tool = (name: string, readOnly: boolean, readOnlyConnectionsOnly?: boolean): McpTool =>
  defineTool({
    name,
    title: name,
    description: name,
    input: z.strictObject({}),
    annotations: { readOnlyHint: readOnly },
    readOnlyConnectionsOnly,
    run: async () => ({ content: [] }),
  });

describe('the tools of a connection', () => {
  const tools = [
    tool('read_record', true),
    tool('create_record', false),
    tool('manage_webhooks', false),
    tool('list_webhooks', true, true),
  ];
  const names = (listed: McpTool[]) => listed.map((listedTool) => listedTool.name);

  it('by default: every tool but the read-only connections’ own', () => {
    expect(names(toolsForConnection(tools, false))).toEqual([
      'read_record',
      'create_record',
      'manage_webhooks',
    ]);
  });

  it('read-only: only the tools annotated read-only, whoever they are listed for otherwise', () => {
    expect(names(toolsForConnection(tools, true))).toEqual(['read_record', 'list_webhooks']);
  });

  it('reads X-MCP-Readonly as true or false in any case, absent as false, and anything else as invalid', () => {
    expect([undefined, '', 'false', 'FALSE', ' false '].map(parseReadOnlyHeader)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['true', 'True', ' TRUE'].map(parseReadOnlyHeader)).toEqual([true, true, true]);
    expect(['1', 'yes', 'on', 'true,false'].map(parseReadOnlyHeader)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses a JSON-RPC batch (any array, even of one message) and takes a single message', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(batchRefusal([message])).toMatch(/batches are not accepted/);
    expect(batchRefusal([])).toBeDefined();
    expect(batchRefusal(message)).toBeUndefined();
    expect(batchRefusal(undefined)).toBeUndefined();
  });
});
