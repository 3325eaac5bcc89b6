import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { WEBHOOK_EVENTS } from '../../src/shared/events/event-catalog';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

const run = promisify(execFile);
const INSPECTOR = resolve(__dirname, '../../node_modules/.bin/mcp-inspector-cli');
// inspector-cli 1.0.3 checks for `../package.json` relative to the working directory but imports it
// relative to its own module: run it from its build folder so both point at its package.json.
const INSPECTOR_CWD = resolve(__dirname, '../../node_modules/@modelcontextprotocol/inspector-cli/build');

/** Issue 13, "Done when": the MCP tools pass the MCP Inspector CLI's tools/list against the live endpoint. */
describe('MCP Inspector CLI', () => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'inspector@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'inspector' })).value;
  });
  afterAll(() => app.close());

  const inspector = (...args: string[]) =>
    run(
      INSPECTOR,
      ['--cli', `${app.baseUrl}/api/v1/mcp`, '--transport', 'http', '--header', `x-api-key: ${key}`, ...args],
      { cwd: INSPECTOR_CWD, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
    );
  /** A read-only connection, as a client configured with the header asks for one. */
  const readOnly = ['--header', 'x-mcp-readonly: true'];

  it('lists every tool with its input and output schemas and annotations', async () => {
    const { stdout } = await inspector('--method', 'tools/list');
    const { tools } = JSON.parse(stdout) as { tools: any[] };
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'create_record',
        'get_record_model',
        'manage_webhooks',
        'read_record',
        'search_records',
        'update_record',
      ].sort(),
    );
    const { stdout: readOnlyOut } = await inspector(...readOnly, '--method', 'tools/list');
    const readOnlyTools = (JSON.parse(readOnlyOut) as { tools: any[] }).tools;
    for (const tool of readOnlyTools) byName[tool.name] = tool;
    expect(readOnlyTools.map((tool) => tool.name).sort()).toEqual(
      [
        'get_delivery',
        'get_record_model',
        'get_resend_batch',
        'get_webhook',
        'list_deliveries',
        'list_webhooks',
        'read_record',
        'search_records',
      ].sort(),
    );
    for (const tool of [...tools, ...readOnlyTools]) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(tool.inputSchema).not.toHaveProperty('oneOf');
      expect(tool.description.length).toBeGreaterThan(40);
    }
    const manage = byName.manage_webhooks;
    expect(manage.inputSchema.required).toEqual(['action']);
    expect(manage.inputSchema.properties.events.items.enum).toEqual([...WEBHOOK_EVENTS]);
    expect(manage.outputSchema).toMatchObject({ type: 'object', anyOf: expect.any(Array) });
    expect(byName.get_delivery.outputSchema.properties.attemptHistory).toMatchObject({ type: 'array' });
    expect(byName.list_deliveries.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('calls a read-only tool as a client without the SDK would', async () => {
    const { stdout } = await inspector(...readOnly, '--method', 'tools/call', '--tool-name', 'list_webhooks');
    const result = JSON.parse(stdout);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ data: [], nextCursor: null });
    const { stdout: manageOut } = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'manage_webhooks',
      '--tool-arg',
      'action=list',
    );
    expect(JSON.parse(manageOut).structuredContent).toEqual({ data: [], nextCursor: null });
  });
});
