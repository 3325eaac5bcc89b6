import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * docs/api.md#rest-endpoints: every field rule, limit, URL and transport rule, custom header rule and body
 * template rule, each at its bound and one past it, through REST and MCP alike.
 */

type Outcome =
  { ok: true; webhook: any } | { ok: false; kind: string; customCodes: string[]; status?: number };

const RESERVED = [
  'Connection',
  'Content-Length',
  'Content-Type',
  'Host',
  'Transfer-Encoding',
  'X-Webhook-Signature',
  'X-Service-Delivery-Id',
];
const mixCase = (name: string) =>
  [...name].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join('');
const headersOf = (count: number, valueLength = 1, nameLength = 5) =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `X-${String(i).padStart(nameLength - 2, 'a')}`,
      'v'.repeat(valueLength),
    ]),
  );
const base = { url: 'https://example.com/hook', events: ['messaging.message.received'] };

const cases: [string, Record<string, unknown>, 'ok' | string][] = [
  ['a URL without a scheme gets https://', { url: 'example.com/hooks' }, 'ok'],
  ['an international host and path in ASCII form', { url: 'https://bücher.example/straße' }, 'ok'],
  ['mailto: is refused', { url: 'mailto:ops@example.com' }, 'webhookUrlSchemeNotAllowed'],
  ['tel: is refused', { url: 'tel:+15555550123' }, 'webhookUrlSchemeNotAllowed'],
  ['ftp: is refused', { url: 'ftp://example.com/x' }, 'webhookUrlSchemeNotAllowed'],
  [
    'a username and password are refused',
    { url: 'https://user:pw@example.com/' },
    'webhookUrlCredentialsNotAllowed',
  ],
  ['an empty host is refused', { url: 'https://' }, 'webhookUrlHostInvalid'],
  ['description of 500 characters', { description: 'd'.repeat(500) }, 'ok'],
  ['description of 501 characters', { description: 'd'.repeat(501) }, 'webhookDescriptionTooLong'],
  ['no events', { events: [] }, 'webhookEventsRequired'],
  ['an unknown event', { events: ['record.exploded'] }, 'webhookEventUnknown'],
  ['a retired event', { events: ['deal.updated'] }, 'webhookEventRetired'],
  ['secret of 1 character', { secret: 's' }, 'ok'],
  ['secret of 256 characters', { secret: 's'.repeat(256) }, 'ok'],
  ['secret of 257 characters', { secret: 's'.repeat(257) }, 'webhookSecretTooLong'],
  ['an empty secret', { secret: '' }, 'webhookSecretEmpty'],
  ...RESERVED.map((name): [string, Record<string, unknown>, string] => [
    `reserved header ${mixCase(name)}`,
    { headers: { [mixCase(name)]: 'x' } },
    'webhookHeaderNameReserved',
  ]),
  ...['webhook-id', 'webhook-timestamp', 'webhook-signature'].flatMap(
    (name): [string, Record<string, unknown>, string][] => [
      [
        `Standard Webhooks header ${mixCase(name)} while standardWebhooks is on`,
        { standardWebhooks: true, headers: { [mixCase(name)]: 'x' } },
        'webhookHeaderNameReserved',
      ],
      [
        `a custom ${name} header while standardWebhooks is off`,
        { standardWebhooks: false, headers: { [name]: 'x' } },
        'ok',
      ],
      // On by default for a new webhook (issue 37, item 4): the names are reserved then too.
      [`a custom ${name} header by default`, { headers: { [name]: 'x' } }, 'webhookHeaderNameReserved'],
    ],
  ),
  ['a custom X-Webhook-Event header', { headers: { 'X-Webhook-Event': 'billing' } }, 'ok'],
  ['a header name that is not a token', { headers: { 'X Bad': 'x' } }, 'webhookHeaderNameInvalid'],
  [
    'a header value with a line break',
    { headers: { 'X-A': 'a\r\nX-Injected: 1' } },
    'webhookHeaderValueInvalid',
  ],
  ['a Latin-1 header value', { headers: { 'X-A': 'café' } }, 'ok'],
  ['a header value beyond Latin-1', { headers: { 'X-A': '5 €' } }, 'webhookHeaderValueInvalid'],
  ['20 headers', { headers: headersOf(20) }, 'ok'],
  ['21 headers', { headers: headersOf(21) }, 'webhookHeadersTooMany'],
  ['a header name of 128 characters', { headers: { ['X'.repeat(128)]: 'v' } }, 'ok'],
  ['a header name of 129 characters', { headers: { ['X'.repeat(129)]: 'v' } }, 'webhookHeaderNameTooLong'],
  ['a header value of 2,048 characters', { headers: { 'X-A': 'v'.repeat(2048) } }, 'ok'],
  [
    'a header value of 2,049 characters',
    { headers: { 'X-A': 'v'.repeat(2049) } },
    'webhookHeaderValueTooLong',
  ],
  ['headers of 8,192 characters in all', { headers: headersOf(4, 2048 - 5) }, 'ok'],
  [
    'headers of 8,193 characters in all',
    { headers: { ...headersOf(4, 2048 - 5), X: '' } },
    'webhookHeadersTooLarge',
  ],
  ['http:// without headers, any host', { url: 'http://example.com/hook' }, 'ok'],
  [
    'http:// with headers on another host',
    { url: 'http://example.com/hook', headers: { 'X-A': '1' } },
    'webhookHeadersNeedHttps',
  ],
  ['http:// with headers on localhost', { url: 'http://localhost:8080/hook', headers: { 'X-A': '1' } }, 'ok'],
  ['http:// with headers on 127.0.0.1', { url: 'http://127.0.0.1:8080/hook', headers: { 'X-A': '1' } }, 'ok'],
  ['http:// with headers on [::1]', { url: 'http://[::1]:8080/hook', headers: { 'X-A': '1' } }, 'ok'],
  ['https:// with headers', { url: 'https://example.com/hook', headers: { 'X-A': '1' } }, 'ok'],
  [
    'a template with placeholders in strings',
    { bodyTemplate: '{"e":"{{event}}","r":"{{data.record.ref.recordId}}"}' },
    'ok',
  ],
  ['a template of 8,192 characters', { bodyTemplate: `{"e":"${'x'.repeat(8192 - 8)}"}` }, 'ok'],
  [
    'a template of 8,193 characters',
    { bodyTemplate: `{"e":"${'x'.repeat(8192 - 7)}"}` },
    'bodyTemplateTooLong',
  ],
  [
    'a placeholder outside a JSON string',
    { bodyTemplate: '{"n": {{data.count}}}' },
    'bodyTemplatePlaceholderOutsideString',
  ],
  ['a template that is an array', { bodyTemplate: '["{{event}}"]' }, 'bodyTemplateNotObject'],
  ['a template that is not JSON', { bodyTemplate: '{"e": ' }, 'bodyTemplateInvalidJson'],
  ['an unknown placeholder', { bodyTemplate: '{"x":"{{foo}}"}' }, 'bodyTemplatePlaceholderUnknown'],
];

describe('webhook rules through REST and MCP', () => {
  let app: TestApp;
  let key: string;
  let mcp: { client: Client; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> };

  const viaRest = async (body: Record<string, unknown>): Promise<Outcome> => {
    const response = await fetch(`${app.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    return response.status === 201
      ? { ok: true, webhook: json }
      : {
          ok: false,
          status: response.status,
          kind: json.error.kind,
          customCodes: json.error.issues.map((i: any) => i.customCode),
        };
  };
  const viaMcp = async (body: Record<string, unknown>): Promise<Outcome> => {
    const result = await mcp.call('manage_webhooks', { action: 'create', ...body });
    return result.isError
      ? {
          ok: false,
          kind: result._meta!.failure.kind,
          customCodes: result._meta!.failure.issues.map((i: any) => i.customCode),
        }
      : { ok: true, webhook: result.structuredContent };
  };

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'hooks@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'hooks' })).value;
    mcp = await connectMcp(app.baseUrl, key);
  });
  afterAll(async () => {
    await mcp?.client.close();
    await app.close();
  });

  describe.each([
    ['REST', () => viaRest],
    ['MCP', () => viaMcp],
  ])('%s', (_surface, surface) => {
    it.each(cases)('%s', async (_name, change, expected) => {
      const outcome = await surface()({ ...base, ...change });
      if (expected === 'ok') {
        expect(outcome).toMatchObject({ ok: true });
      } else {
        expect(outcome).toMatchObject({ ok: false, kind: 'validation' });
        expect((outcome as { customCodes: string[] }).customCodes).toContain(expected);
        if ((outcome as { status?: number }).status) expect((outcome as { status: number }).status).toBe(400);
      }
    });

    it('saves URLs in their normalized ASCII form', async () => {
      const bare = await surface()({ ...base, url: 'example.com/hooks' });
      expect((bare as any).webhook.url).toBe('https://example.com/hooks');
      const idn = await surface()({ ...base, url: 'https://bücher.example/straße' });
      expect((idn as any).webhook.url).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');
    });
  });

  it('refuses turning Standard Webhooks on over a saved header of its names, and changes nothing', async () => {
    const created = (await viaRest({
      ...base,
      standardWebhooks: false,
      headers: { 'Webhook-Id': 'mine' },
    })) as any;
    const patch = await fetch(`${app.baseUrl}/api/v1/webhooks/${created.webhook.id}`, {
      method: 'PATCH',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ standardWebhooks: true }),
    });
    expect(patch.status).toBe(400);
    expect(((await patch.json()) as any).error.issues).toEqual([
      expect.objectContaining({ path: ['headers', 'Webhook-Id'], customCode: 'webhookHeaderNameReserved' }),
    ]);
    const [row] = await app.dataSource.query(`SELECT standard_webhooks FROM webhooks WHERE id = $1`, [
      created.webhook.id,
    ]);
    expect(row.standard_webhooks).toBe(false);
  });

  it('never returns a secret or header values: hasSecret and headerNames instead', async () => {
    const created = (await viaRest({
      ...base,
      secret: 'top-secret-value',
      headers: { 'X-Token': 'header-secret' },
    })) as any;
    expect(created.webhook).toMatchObject({ hasSecret: true, headerNames: ['X-Token'] });
    const listed = await fetch(`${app.baseUrl}/api/v1/webhooks/${created.webhook.id}`, {
      headers: { 'x-api-key': key },
    });
    const text = await listed.text();
    expect(text).not.toContain('top-secret-value');
    expect(text).not.toContain('header-secret');
    const viaTool = await mcp.call('manage_webhooks', { action: 'get', id: created.webhook.id });
    expect(JSON.stringify(viaTool)).not.toContain('top-secret-value');
    const [row] = await app.dataSource.query(
      `SELECT secret_sealed, headers_sealed FROM webhooks WHERE id = $1`,
      [created.webhook.id],
    );
    expect(row.secret_sealed).not.toContain('top-secret-value');
    expect(row.headers_sealed).not.toContain('header-secret');
  });

  it('requires expectedSchemaRevision for record subscriptions through MCP, and refuses a stale one with conflict', async () => {
    const missing = await viaMcp({ ...base, events: ['record.created'] });
    expect(missing).toMatchObject({
      ok: false,
      kind: 'validation',
      customCodes: ['webhookSchemaRevisionRequired'],
    });
    const model = await mcp.call('get_record_model', {});
    const revision = model.structuredContent.schemaRevision;
    const stale = await viaMcp({ ...base, events: ['record.created'], expectedSchemaRevision: revision - 1 });
    expect(stale).toMatchObject({ ok: false, kind: 'conflict', customCodes: ['webhookSchemaRevisionStale'] });
    const fresh = await viaMcp({ ...base, events: ['record.created'], expectedSchemaRevision: revision });
    expect(fresh).toMatchObject({
      ok: true,
      webhook: { expectedSchemaRevision: revision, recordTrigger: null },
    });
  });

  it('checks record sources: at most 50, never with recordTrigger, queries that fit the type', async () => {
    const deal = (await mcp.call('get_record_model', { type: 'deal' })).structuredContent.types[0];
    const source = { query: { typeId: deal.id } };
    expect(
      await viaRest({ ...base, events: ['record.updated'], recordSources: Array(50).fill(source) }),
    ).toMatchObject({ ok: true });
    expect(
      await viaRest({ ...base, events: ['record.updated'], recordSources: Array(51).fill(source) }),
    ).toMatchObject({
      ok: false,
      customCodes: ['webhookRecordSourcesTooMany'],
    });
    expect(
      await viaRest({ ...base, events: ['record.updated'], recordTrigger: source, recordSources: [source] }),
    ).toMatchObject({ ok: false, customCodes: ['webhookRecordSourceConflict'] });
    const badFilter = await viaRest({
      ...base,
      events: ['record.updated'],
      recordTrigger: {
        query: { typeId: deal.id, filters: [{ fieldId: deal.fields[0].id, op: 'gt', value: 'x' }] },
      },
    });
    expect(badFilter).toMatchObject({ ok: false, customCodes: ['queryOperatorNotAllowed'] });
  });
});
