import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { IDEMPOTENCY_KEY_MAX } from '../../src/http/idempotency/idempotency';
import { QUERY_FILTERS_MAX, QUERY_SEARCH_MAX } from '../../src/shared/records/record-query.rules';
import { BODY_TEMPLATE_MAX, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_SECRET_MAX } from '../../src/shared/limits';
import { CHANGED_FIELDS_MAX, RECORD_SOURCES_MAX } from '../../src/shared/webhooks/record-source.rules';
import {
  WEBHOOK_HEADER_NAME_MAX,
  WEBHOOK_HEADER_VALUE_MAX,
  WEBHOOK_HEADERS_MAX_COUNT,
} from '../../src/shared/webhooks/webhook-headers';
import { WEBHOOK_URL_MAX } from '../../src/shared/webhooks/webhook-url';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * What an assistant loads into every chat: each tool's name, title, description, inputSchema and
 * annotations (the clients we know give the model no outputSchema). Issue 27 asks for 25 KB: read
 * as 25,000 bytes, the stricter reading (18,439 bytes on a default connection, 7,482 read-only).
 */
const CONTEXT_MAX_BYTES = 25_000;
/**
 * The whole tools/list answer, output schemas included. Issue 27 asks for 25 KB; 108 KB before it.
 * A read-only connection's list (the record reads and manage_webhooks' reads as tools of their own)
 * meets it: 23,175 bytes.
 */
const READ_ONLY_TOOLS_LIST_MAX_BYTES = 25_000;
/**
 * A default connection's list does not: 29,601 bytes, of which manage_webhooks is 21,976 (input 11,607,
 * output 9,980). It was 73,773 with the read-only twins listed beside it and descriptions in the
 * output schemas, and 30,980 before issue 35 took back what output schemas said twice (docs/api.md):
 * the 1,399 bytes left let a field be added without a seventh edit (a plain text field adds about
 * 115 bytes and its description). What reaching 25,000 would cost is in docs/api.md; this bound
 * makes growth a decision.
 */
const TOOLS_LIST_MAX_BYTES = 31_000;

type Schema = Record<string, any>;

/** Every subschema below `schema` with its path, the way a client reads them. */
function* subschemas(schema: Schema, path: string): Generator<[string, Schema]> {
  yield [path, schema];
  for (const [name, inner] of Object.entries<Schema>(schema.properties ?? {}))
    yield* subschemas(inner, `${path}.${name}`);
  for (const [key, inner] of Object.entries(schema)) {
    if (key === 'items' || (key === 'additionalProperties' && typeof inner === 'object')) {
      yield* subschemas(inner, `${path}[]`);
    }
  }
  for (const [i, inner] of (schema.anyOf ?? []).entries()) yield* subschemas(inner, `${path}|${i}`);
  for (const [name, inner] of Object.entries<Schema>(schema.definitions ?? {}))
    yield* subschemas(inner, `#${name}`);
}

/** Issue 27, item 4: an assistant's context is not free. */
describe('MCP tools/list', () => {
  let app: TestApp;
  let key: string;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;
  let reader: Awaited<ReturnType<typeof connectMcp>>;
  /** The tools of a default connection, then of a read-only one (`X-MCP-Readonly: true`). */
  let tools: Tool[];
  let readOnlyTools: Tool[];
  let listed: { body: string; tools: Schema[] };
  let listedReadOnly: { body: string; tools: Schema[] };
  const input = (tool: string) =>
    [...tools, ...readOnlyTools].find((candidate) => candidate.name === tool)!.inputSchema as Schema;

  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${app.baseUrl}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const rawList = async (headers: Record<string, string>) => {
    const body = await (await post(headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).text();
    return { body, tools: JSON.parse(body).result.tools };
  };

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'tools-list@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'mcp' })).value;
    mcp = await connectMcp(app.baseUrl, key);
    reader = await connectMcp(app.baseUrl, key, { readOnly: true });
    // The SDK client compiles every outputSchema with its Ajv here: a `$ref` it could not resolve throws.
    tools = (await mcp.client.listTools()).tools;
    readOnlyTools = (await reader.client.listTools()).tools;
    listed = await rawList({});
    listedReadOnly = await rawList({ 'x-mcp-readonly': 'true' });
  });
  afterAll(async () => {
    await mcp?.client.close();
    await reader?.client.close();
    await app?.close();
  });

  it.each([
    ['a default connection', () => listed, TOOLS_LIST_MAX_BYTES],
    ['a read-only connection', () => listedReadOnly, READ_ONLY_TOOLS_LIST_MAX_BYTES],
  ])('fits an assistant’s context, and the whole answer its budget, on %s', (_, answer, wholeMax) => {
    const { body, tools: advertised } = answer();
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    const context = advertised.map(({ outputSchema: _output, ...seen }) => seen);
    const sizes = advertised.map(
      (tool) =>
        `${tool.name}: ${bytes(tool)} (input ${bytes(tool.inputSchema)}, output ${bytes(tool.outputSchema ?? {})})`,
    );
    // On failure, the sizes per tool say where it grew.
    const measured = { context: bytes(context), whole: Buffer.byteLength(body), sizes };
    expect(measured.context <= CONTEXT_MAX_BYTES ? 'fits the context budget' : measured).toBe(
      'fits the context budget',
    );
    expect(measured.whole <= wholeMax ? 'fits the whole budget' : measured).toBe('fits the whole budget');
  });

  it('lists the write tools and manage_webhooks by default, and only tools that change nothing when read-only', () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_record_model',
      'search_records',
      'read_record',
      'create_record',
      'update_record',
      'manage_webhooks',
    ]);
    expect(readOnlyTools.map((tool) => tool.name)).toEqual([
      'get_record_model',
      'search_records',
      'read_record',
      'list_webhooks',
      'get_webhook',
      'list_deliveries',
      'get_delivery',
      'get_resend_batch',
    ]);
    for (const tool of readOnlyTools)
      expect([tool.name, tool.annotations?.readOnlyHint]).toEqual([tool.name, true]);
    // The server's instructions say which kind of connection it is.
    expect(reader.client.getInstructions()).toMatch(
      /^CRM webhooks, read-only connection: .*nothing can be changed here/,
    );
    expect(mcp.client.getInstructions()).toMatch(/^CRM webhooks: read and change CRM records/);
  });

  it('calls only the tools a connection lists: a read-only one writes nothing, whatever the key may do', async () => {
    const notFound = (result: ToolResult) => {
      expect(result.isError).toBe(true);
      expect(result._meta!.failure.issues[0].customCode).toBe('toolNotFound');
    };
    const { id } = (
      await mcp.call('manage_webhooks', {
        action: 'create',
        url: 'https://example.com/read-only-connection',
        events: ['messaging.message.received'],
      })
    ).structuredContent;
    notFound(await reader.call('manage_webhooks', { action: 'delete', id }));
    notFound(await reader.call('create_record', { type: 'deal', values: { Name: 'Not written' } }));
    notFound(await mcp.call('list_webhooks', {}));
    const stillThere = await reader.call('get_webhook', { id });
    expect(stillThere.structuredContent.id).toBe(id);
    const deals = await reader.call('search_records', { type: 'deal', search: 'Not written' });
    expect(deals.content[0]!.text).not.toContain('Not written');

    // A header that is neither true nor false is refused before anything runs.
    for (const value of ['yes', '1']) {
      const refused = await post(
        { 'x-mcp-readonly': value },
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      );
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'X-MCP-Readonly must be true or false.' },
        id: null,
      });
    }
    expect((await rawList({ 'x-mcp-readonly': 'False' })).tools.map((tool: Tool) => tool.name)).toContain(
      'manage_webhooks',
    );
  });

  it('describes every input, at every depth', () => {
    const undescribed = [...tools, ...readOnlyTools].flatMap((tool) =>
      [...subschemas(tool.inputSchema as Schema, tool.name)].flatMap(([path, schema]) =>
        Object.entries<Schema>(schema.properties ?? {})
          .filter(([, property]) => typeof (property as Schema).description !== 'string')
          .map(([name]) => `${path}.${name}`),
      ),
    );
    expect(undescribed).toEqual([]);
  });

  it('advertises the limits of the rules, from the constants the rules use', () => {
    const { properties: webhook } = input('manage_webhooks');
    const [trigger] = webhook.recordTrigger.anyOf;
    const [sources] = webhook.recordSources.anyOf;
    const { query } = trigger.properties;
    expect({
      url: webhook.url.maxLength,
      description: webhook.description.maxLength,
      secret: [webhook.secret.minLength, webhook.secret.maxLength],
      bodyTemplate: webhook.bodyTemplate.anyOf[0].maxLength,
      headers: [
        webhook.headers.anyOf[0].maxProperties,
        webhook.headers.anyOf[0].propertyNames.maxLength,
        webhook.headers.anyOf[0].additionalProperties.maxLength,
      ],
      recordSources: sources.maxItems,
      search: query.properties.search.maxLength,
      filters: query.properties.filters.maxItems,
      changedFieldIds: trigger.properties.changedFieldIds.maxItems,
      sourceQuery: sources.items.properties.query,
      deliveryUrl: [webhook.deliveryUrl.maxLength, input('list_deliveries').properties.deliveryUrl.maxLength],
      idempotencyKey: webhook.idempotencyKey.maxLength,
      recordFilters: input('search_records').properties.filters.maxItems,
    }).toEqual({
      url: WEBHOOK_URL_MAX,
      description: WEBHOOK_DESCRIPTION_MAX,
      secret: [1, WEBHOOK_SECRET_MAX],
      bodyTemplate: BODY_TEMPLATE_MAX,
      headers: [WEBHOOK_HEADERS_MAX_COUNT, WEBHOOK_HEADER_NAME_MAX, WEBHOOK_HEADER_VALUE_MAX],
      recordSources: RECORD_SOURCES_MAX,
      search: QUERY_SEARCH_MAX,
      filters: QUERY_FILTERS_MAX,
      changedFieldIds: CHANGED_FIELDS_MAX,
      sourceQuery: query,
      deliveryUrl: [WEBHOOK_URL_MAX, WEBHOOK_URL_MAX],
      idempotencyKey: IDEMPOTENCY_KEY_MAX,
      recordFilters: QUERY_FILTERS_MAX,
    });
  });

  it('says uuid and date-time by format, keeps inputs free of $ref, and defines what outputs share', () => {
    for (const tool of [...tools, ...readOnlyTools]) {
      for (const [path, schema] of [
        ...subschemas(tool.inputSchema as Schema, tool.name),
        ...subschemas((tool.outputSchema ?? {}) as Schema, `${tool.name}>`),
      ]) {
        expect({ path, pattern: schema.format ? schema.pattern : undefined }).toEqual({
          path,
          pattern: undefined,
        });
      }
      // Several clients cannot resolve a $ref in an inputSchema and drop the tool.
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"\$ref"|"\$defs"/);
      const refs = JSON.stringify(tool.outputSchema ?? {}).match(/"\$ref":"[^"]*"/g) ?? [];
      const defined = Object.keys((tool.outputSchema as Schema | undefined)?.definitions ?? {});
      expect(
        refs
          .map((ref) => ref.slice('"$ref":"#/definitions/'.length, -1))
          .filter((name) => !defined.includes(name)),
      ).toEqual([]);
    }
    const manage = tools.find((tool) => tool.name === 'manage_webhooks')!.outputSchema as Schema;
    expect(Object.keys(manage.definitions)).toEqual(expect.arrayContaining(['Webhook', 'Delivery']));
    expect(manage.anyOf).toContainEqual({ $ref: '#/definitions/Webhook' });
    // get_delivery's Event Details is a delivery and more: a delivery's properties are written once.
    expect(JSON.stringify(manage).match(/"temporalUrl":\{/g)).toHaveLength(1);
    expect(manage.definitions.Delivery.allOf[0]).toEqual({ $ref: '#/definitions/DeliveryOrEventDetails' });
  });

  it('still refuses a malformed id with the spec’s error body, and says which tool gives ids', async () => {
    const malformed = await reader.call('get_webhook', { id: 'Contacts to the CRM sync' });
    expect(malformed.isError).toBe(true);
    expect(malformed._meta!.failure).toEqual({
      kind: 'validation',
      issues: [{ code: 'invalid_format', path: ['id'], message: 'Invalid UUID', customCode: 'invalid' }],
    });
    expect(malformed.content[0]!.text).toMatch(
      /\[invalid\]\nUse manage_webhooks action list \(or list_webhooks\) to find webhook ids\.$/,
    );

    const unknown = '6f1c1a52-8c9e-4d0b-9a57-0f1a2b3c4d5e';
    const missing = await mcp.call('manage_webhooks', { action: 'get', id: unknown });
    const rest = await fetch(`${app.baseUrl}/api/v1/webhooks/${unknown}`, { headers: { 'x-api-key': key } });
    expect(rest.status).toBe(404);
    // REST's body is untouched; MCP carries the same error, and only its text gains the hint.
    expect(await rest.json()).toEqual({ error: missing._meta!.failure });
    expect(missing._meta!.failure).toMatchObject({
      kind: 'not_found',
      issues: [{ customCode: 'webhookNotFound' }],
    });
    expect(missing.content[0]!.text).toBe(
      'Refused (not_found): Webhook not found. [webhookNotFound]\nUse manage_webhooks action list (or list_webhooks) to find webhook ids.',
    );
  });
});
