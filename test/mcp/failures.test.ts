import { Client } from 'pg';
import { BUSY_MESSAGE } from '../../src/errors/busy';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/** Issue 10, hole 6 (c): every MCP tool failure is a tool result with `_meta.failure`, never internals. */
describe('MCP tool failures', () => {
  let app: TestApp;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;
  let holder: Client;

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'mcp-failures@example.com' })).client;
    const key = (await admin.ok('POST', '/app/api/api-keys', { name: 'mcp' })).value;
    mcp = await connectMcp(app.baseUrl, key);
    holder = new Client({ connectionString: (app.dataSource.options as { url: string }).url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await mcp?.client.close();
    await app.close();
  });

  const callSettled = async (args: Record<string, unknown>): Promise<ToolResult | Error> =>
    mcp.call('manage_webhooks', args).catch((error: Error) => error);

  it('a busy database (a lock held past the lock timeout) is a retryable rate_limit result', async () => {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE webhooks IN ACCESS EXCLUSIVE MODE');
    let result: ToolResult | Error;
    try {
      result = await callSettled({ action: 'list' });
    } finally {
      await holder.query('ROLLBACK');
    }
    expect(result).not.toBeInstanceOf(Error);
    const failed = result as ToolResult;
    expect(failed.isError).toBe(true);
    expect(failed._meta?.failure).toEqual({
      kind: 'rate_limit',
      retryable: true,
      // What REST says in Retry-After: an MCP client may not see the headers.
      retryAfterSeconds: 2,
      issues: [expect.objectContaining({ message: BUSY_MESSAGE })],
    });
    expect(failed.content[0]!.text).toContain(BUSY_MESSAGE);
    expect(failed.content[0]!.text).not.toMatch(/lock|timeout|canceling/i);
  }, 30_000);

  it('an unexpected failure is a result with a generic message and no internal text', async () => {
    // A real database error the code does not expect: a column it reads is gone.
    await holder.query('ALTER TABLE webhooks RENAME COLUMN description TO description_gone');
    let result: ToolResult | Error;
    try {
      result = await callSettled({ action: 'list' });
    } finally {
      await holder.query('ALTER TABLE webhooks RENAME COLUMN description_gone TO description');
    }
    expect(result).not.toBeInstanceOf(Error);
    const failed = result as ToolResult;
    expect(failed.isError).toBe(true);
    expect(failed._meta?.failure).toMatchObject({
      kind: 'unavailable',
      retryable: false,
      issues: [expect.objectContaining({ customCode: 'unexpectedError' })],
    });
    const everything = JSON.stringify(failed);
    expect(everything).not.toMatch(/description|column|does not exist|QueryFailedError|at \w+ \(/i);
    expect(failed.content[0]!.text).toMatch(/request id [\w-]+/);
  });
});
