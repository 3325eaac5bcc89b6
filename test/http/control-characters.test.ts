import { connectMcp, type ToolResult } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 24, item 7: a NUL (or another control character) in a query parameter, a JSON body or an
 * MCP tool argument answered 500 (PostgreSQL refuses 0x00 in text) or was stored. Each is now the
 * spec's validation refusal naming the field, and nothing changes.
 */
describe('control characters in request text', () => {
  let app: TestApp;
  let web: WebClient;
  let key: string;
  let webhookId: string;
  let nameField: string;
  let recordId: string;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;
  let reader: Awaited<ReturnType<typeof connectMcp>>;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const count = async (table: string) =>
    Number((await app.dataSource.query(`SELECT count(*) FROM ${table}`))[0].count);
  const description = async () =>
    (await app.dataSource.query(`SELECT description FROM webhooks WHERE id = $1`, [webhookId]))[0]
      .description as string | null;
  const recordName = async () =>
    (await app.dataSource.query(`SELECT values FROM records WHERE id = $1`, [recordId]))[0].values[
      nameField
    ] as string;

  /** The spec's refusal: 400, kind validation, one issue `controlCharacter` at `path`. */
  const refused = (answer: { status: number; body: any }, path: (string | number)[]) => {
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        kind: 'validation',
        issues: [{ code: 'custom', path, message: expect.any(String), customCode: 'controlCharacter' }],
      },
    });
  };
  const refusedOverMcp = (result: ToolResult, path: (string | number)[]) => {
    expect(result.isError).toBe(true);
    expect(result._meta?.failure).toEqual({
      kind: 'validation',
      issues: [{ code: 'custom', path, message: expect.any(String), customCode: 'controlCharacter' }],
    });
  };

  beforeAll(async () => {
    app = await startTestApp();
    web = (await WebClient.signUp(app.baseUrl, { email: 'controls@example.com' })).client;
    key = (await web.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
    webhookId = (
      await web.ok('POST', '/app/api/webhooks', {
        url: 'https://example.com/controls',
        events: ['record.created'],
        description: 'kept',
      })
    ).id;
    const deal = (await api('POST', '/api/v1/model/read', { type: 'deal' })).body.type;
    nameField = deal.fields.find((field: { name: string }) => field.name === 'Name').id;
    recordId = (await api('POST', '/api/v1/records/deal', { values: { [nameField]: 'Kept deal' } })).body.id;
    mcp = await connectMcp(app.baseUrl, key);
    reader = await connectMcp(app.baseUrl, key, { readOnly: true });
  });
  afterAll(async () => {
    await mcp?.client.close();
    await reader?.client.close();
    await app?.close();
  });

  describe('a NUL is refused before it reaches PostgreSQL', () => {
    it('in searchTerm of GET /api/v1/webhooks/deliveries (was 500)', async () => {
      refused(await api('GET', '/api/v1/webhooks/deliveries?searchTerm=a%00b'), ['searchTerm']);
      refused(await api('GET', `/api/v1/webhooks/${webhookId}/deliveries?searchTerm=%00`), ['searchTerm']);
    });

    it('in the web app’s delivery search and the webhook list’s search', async () => {
      refused(await web.request('GET', '/app/api/webhooks/deliveries?searchTerm=x%00'), ['searchTerm']);
      refused(await api('GET', '/api/v1/webhooks?search=%00'), ['search']);
    });

    it('in a webhook description, created or changed over REST and the web app: nothing written', async () => {
      const before = await count('webhooks');
      refused(
        await api('POST', '/api/v1/webhooks', {
          url: 'https://example.com/nul',
          events: ['record.created'],
          description: 'evil\u0000',
        }),
        ['description'],
      );
      refused(await api('PATCH', `/api/v1/webhooks/${webhookId}`, { description: 'a\u0000b' }), [
        'description',
      ]);
      refused(await web.request('PATCH', `/app/api/webhooks/${webhookId}`, { description: '\u0000' }), [
        'description',
      ]);
      expect(await count('webhooks')).toBe(before);
      expect(await description()).toBe('kept');
    });

    it('in a record’s text value, on create and update: nothing written', async () => {
      const before = await count('records');
      refused(await api('POST', '/api/v1/records/deal', { values: { [nameField]: 'Deal\u0000' } }), [
        'values',
        nameField,
      ]);
      refused(await api('PATCH', `/api/v1/records/deal/${recordId}`, { values: { [nameField]: '\u0000' } }), [
        'values',
        nameField,
      ]);
      refused(
        await web.request('PATCH', `/app/api/records/deal/${recordId}`, {
          values: { [nameField]: 'x\u0000' },
        }),
        ['values', nameField],
      );
      expect(await count('records')).toBe(before);
      expect(await recordName()).toBe('Kept deal');
    });

    it('in a filter value sent as JSON inside the query string', async () => {
      const filters = JSON.stringify([{ fieldId: nameField, op: 'contains', value: 'a\u0000' }]);
      refused(await api('GET', `/api/v1/records/deal?filters=${encodeURIComponent(filters)}`), [
        'filters',
        0,
        'value',
      ]);
    });

    it('in a JSON key: a record value’s field reference', async () => {
      refused(await api('PATCH', `/api/v1/records/deal/${recordId}`, { values: { 'a\u0000': 'x' } }), [
        'values',
        'a\u0000',
      ]);
      expect(await recordName()).toBe('Kept deal');
    });

    it('in a webhook’s URL and headers, refused by their own rules with their own customCodes', async () => {
      const before = await count('webhooks');
      const ownRule = (answer: { status: number; body: any }, path: string[], customCode: string) => {
        expect(answer.status).toBe(400);
        expect(answer.body.error.issues).toEqual([expect.objectContaining({ path, customCode })]);
      };
      ownRule(
        await api('POST', '/api/v1/webhooks', {
          url: 'https://example.com/\u0000',
          events: ['record.created'],
        }),
        ['url'],
        'webhookUrlInvalid',
      );
      ownRule(
        await api('POST', '/api/v1/webhooks', {
          url: 'https://example.com/a\r\nb',
          events: ['record.created'],
        }),
        ['url'],
        'webhookUrlInvalid',
      );
      ownRule(
        await api('PATCH', `/api/v1/webhooks/${webhookId}`, { headers: { 'X-\u0000': 'v' } }),
        ['headers', 'X-\u0000'],
        'webhookHeaderNameInvalid',
      );
      ownRule(
        await api('PATCH', `/api/v1/webhooks/${webhookId}`, { headers: { 'X-A': 'v\u0000' } }),
        ['headers', 'X-A'],
        'webhookHeaderValueInvalid',
      );
      expect(await count('webhooks')).toBe(before);
      const [row] = await app.dataSource.query(`SELECT url, header_names FROM webhooks WHERE id = $1`, [
        webhookId,
      ]);
      expect(row).toEqual({ url: 'https://example.com/controls', header_names: [] });
    });

    it('in the idempotencyKey body field of a REST write, and in an MCP write’s (was 500): nothing written', async () => {
      const webhooks = await count('webhooks');
      const keys = await count('idempotency_keys');
      const hook = { url: 'https://example.com/idem-nul', events: ['record.created'] };
      refused(await api('POST', '/api/v1/webhooks', { ...hook, idempotencyKey: 'k\u0000' }), [
        'idempotencyKey',
      ]);
      refused(
        await api('PATCH', `/api/v1/webhooks/${webhookId}`, {
          description: 'changed',
          idempotencyKey: '\u0000',
        }),
        ['idempotencyKey'],
      );
      refused(
        await api('POST', '/api/v1/records/deal', {
          values: { [nameField]: 'Idem' },
          idempotencyKey: 'a\u0001b',
        }),
        ['idempotencyKey'],
      );
      refusedOverMcp(
        await mcp.call('create_record', {
          type: 'deal',
          values: { Name: 'Idem' },
          idempotencyKey: 'k\u0000',
        }),
        ['idempotencyKey'],
      );
      expect(await count('webhooks')).toBe(webhooks);
      expect(await count('idempotency_keys')).toBe(keys);
      expect(await description()).toBe('kept');
    });

    it('in MCP tool arguments: a tool result with _meta.failure, and nothing written', async () => {
      const { schemaRevision } = (await mcp.call('get_record_model', { type: 'deal' })).structuredContent;
      const webhooks = await count('webhooks');
      const records = await count('records');
      refusedOverMcp(
        await mcp.call('manage_webhooks', {
          action: 'create',
          url: 'https://example.com/mcp-nul',
          events: ['record.created'],
          expectedSchemaRevision: schemaRevision,
          description: 'evil\u0000',
        }),
        ['description'],
      );
      refusedOverMcp(await reader.call('list_deliveries', { searchTerm: '\u0000' }), ['searchTerm']);
      refusedOverMcp(
        await mcp.call('manage_webhooks', { action: 'list_deliveries', searchTerm: 'a\u0000' }),
        ['searchTerm'],
      );
      refusedOverMcp(await mcp.call('create_record', { type: 'deal', values: { Name: 'MCP\u0000' } }), [
        'values',
        'Name',
      ]);
      refusedOverMcp(
        await mcp.call('update_record', { type: 'deal', recordId, values: { Name: '\u0000' } }),
        ['values', 'Name'],
      );
      expect(await count('webhooks')).toBe(webhooks);
      expect(await count('records')).toBe(records);
      expect(await recordName()).toBe('Kept deal');
    });
  });

  it('leaves passwords to the password rule, which takes any character', async () => {
    const password = 'tabs\tbetween\tfour\twords';
    const signedUp = await new WebClient(app.baseUrl).request('POST', '/app/api/auth/sign-up', {
      name: 'Tab',
      email: 'tab@example.com',
      password,
      workspaceName: 'Tabs',
    });
    expect(signedUp.status).toBe(201);
    await WebClient.signIn(app.baseUrl, 'tab@example.com', password);
  });

  describe('the other control characters, by kind of field', () => {
    it('refuses the other C0 controls and DEL even where lines are allowed', async () => {
      for (const control of ['\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f']) {
        refused(await api('PATCH', `/api/v1/webhooks/${webhookId}`, { description: `a${control}b` }), [
          'description',
        ]);
      }
      expect(await description()).toBe('kept');
    });

    it('takes tabs and line breaks where text runs over lines: a description, a body template, a text value', async () => {
      const multiLine = 'first line\r\nsecond\tline\n';
      const patched = await api('PATCH', `/api/v1/webhooks/${webhookId}`, {
        description: multiLine,
        bodyTemplate: '{\n\t"event": "{{event}}"\n}\n',
      });
      expect(patched.status).toBe(200);
      expect(await description()).toBe(multiLine);
      const record = await api('PATCH', `/api/v1/records/deal/${recordId}`, {
        values: { [nameField]: 'two\nlines' },
      });
      expect(record.status).toBe(200);
      expect(await recordName()).toBe('two\nlines');
    });

    it('refuses tabs and line breaks in one-line fields: a search term, a URL filter, a name, a secret', async () => {
      refused(await api('GET', '/api/v1/webhooks/deliveries?searchTerm=a%0Ab'), ['searchTerm']);
      refused(await api('GET', '/api/v1/webhooks/deliveries?url=https%3A%2F%2Fexample.com%2F%09'), ['url']);
      const keys = await count('api_keys');
      refused(await web.request('POST', '/app/api/api-keys', { name: 'tab\there' }), ['name']);
      expect(await count('api_keys')).toBe(keys);
      // A new webhook has a generated secret (Standard Webhooks is on by default): the refusal keeps it.
      const sealedSecret = async () =>
        (await app.dataSource.query(`SELECT secret_sealed FROM webhooks WHERE id = $1`, [webhookId]))[0]
          .secret_sealed;
      const before = await sealedSecret();
      refused(await api('PATCH', `/api/v1/webhooks/${webhookId}`, { secret: 'secret\n' }), ['secret']);
      expect(await sealedSecret()).toBe(before);
    });
  });
});
