import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { createWebhookBody, updateWebhookBody } from '../../src/webhooks/webhooks.schemas';
import { byTextField, WEBHOOK_TEXT_FIELDS } from '../../src/shared/webhooks/webhook-fields';
import { connectMcp } from '../helpers/mcp';
import { serverErrorsAt, unexpectedStatus } from '../helpers/server-errors';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { memberWithRole, WebClient } from '../helpers/web-client';

/**
 * Issue 25, "a field described once and checked end to end": every field of the webhook request
 * schema, set to a value of its own, is created, read back, updated to another value, read and
 * listed again over REST, MCP (manage_webhooks, the official client SDK) and the web app's
 * /app/api. The fields are the schema's keys: a field added to webhooks.schemas.ts fails the
 * first test until both samples give it a value, and the round trips until the service stores it
 * and the view returns it. Secret and header values are write-only: the view's hasSecret and
 * headerNames, and the dialog's secrets route (Admin) for the values.
 */

/** A webhook request with every field of the schema sent. */
type Sample = Required<z.input<typeof createWebhookBody>>;
type Field = keyof Sample;
const FIELDS = Object.keys(createWebhookBody.shape).sort() as Field[];

/** The plain text fields (webhook-fields.ts) carry their own two samples. */
const textSamples = (sample: 0 | 1) => byTextField((field) => WEBHOOK_TEXT_FIELDS[field].samples[sample]);

/** A webhook as a read shows it, with the saved secret and header values the dialog reads. */
type Read = { view: Record<string, unknown>; secrets: { secret: string | null; headers: unknown } };

/** A field that comes back other than as sent: the write-only ones. Every other one is read as sent. */
const WRITE_ONLY: Partial<Record<Field, (read: Read, sent: Sample) => [read: unknown, sent: unknown]>> = {
  secret: (read, sent) => [
    { hasSecret: read.view.hasSecret, secret: read.secrets.secret },
    { hasSecret: sent.secret !== null, secret: sent.secret },
  ],
  headers: (read, sent) => [
    { headerNames: read.view.headerNames, headers: read.secrets.headers },
    { headerNames: Object.keys(sent.headers ?? {}), headers: sent.headers },
  ],
};

/** As JSON carries it: answers parsed outside the test's realm (the MCP client's) compare alike. */
const plain = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

/** The fields whose read differs from what was sent, each with both. */
function mismatches(read: Read, sent: Sample): { field: Field; read: unknown; sent: unknown }[] {
  return FIELDS.flatMap((field) => {
    const [got, expected] = WRITE_ONLY[field]?.(read, sent) ?? [read.view[field], sent[field]];
    return isDeepStrictEqual(plain(got), plain(expected)) ? [] : [{ field, read: got, sent: expected }];
  });
}

interface Transport {
  create(body: Sample): Promise<any>;
  get(id: string): Promise<any>;
  update(id: string, body: Sample): Promise<any>;
  list(): Promise<any[]>;
}

describe('every webhook field, round trip', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;
  let deal: { id: string; field: (name: string) => string };
  let contactTypeId: string;
  /** The record owners the samples choose: members other than the Admin who writes. */
  let mia: string;
  let max: string;
  const transports = new Map<string, Transport>();
  const closeMcp: (() => Promise<void>)[] = [];

  const api = async (method: string, path: string, body?: unknown, expected = [200, 201]) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!expected.includes(response.status))
      throw unexpectedStatus(app.baseUrl, `${method} ${path}`, response.status, text);
    return text ? (JSON.parse(text) as any) : undefined;
  };
  const revision = async (): Promise<number> => (await api('POST', '/model/discover', {})).schemaRevision;
  let modelChanges = 0;
  /** A model change, so that the update's expectedSchemaRevision is another value than the create's. */
  const raiseRevision = async () => {
    modelChanges += 1;
    await api('POST', '/model/types', { name: `Round trip ${modelChanges}` });
  };

  /** Deals in the won stage, watched for amount changes: recordTrigger, no recordSources. */
  const first = (schemaRevision: number): Sample => ({
    url: 'https://first.example.com/hooks/in',
    ...textSamples(0),
    events: ['record.created', 'record.updated'],
    operationalEvents: ['webhook.endpoint.disabled'],
    secret: 'first-signing-secret',
    headers: { 'X-First-Token': 'first value', 'X-Team': 'billing' },
    bodyTemplate: '{"event":"{{event}}","hook":"first"}',
    enabled: false,
    standardWebhooks: true,
    rateLimit: 20,
    expectedSchemaRevision: schemaRevision,
    recordTrigger: {
      query: {
        typeId: deal.id,
        search: 'renewal',
        filters: [
          { fieldId: deal.field('Stage'), op: 'eq', value: 'Won' },
          { fieldId: deal.field('Amount'), op: 'gt', value: 1000 },
        ],
      },
      changedFieldIds: [deal.field('Amount')],
    },
    recordSources: null,
    recordOwnerUserId: mia,
  });
  /** Two record sources, other events and owner, everything else changed too: no recordTrigger. */
  const second = (schemaRevision: number): Sample => ({
    url: 'https://second.example.com/other/path',
    ...textSamples(1),
    events: ['record.created', 'record.deleted', 'messaging.email.received'],
    operationalEvents: ['webhook.endpoint.failing', 'webhook.delivery.exhausted'],
    secret: 'second-signing-secret',
    headers: { 'X-Second-Token': 'second value' },
    bodyTemplate: '{"type":"{{event}}","id":"{{id}}"}',
    enabled: true,
    standardWebhooks: false,
    rateLimit: 1000,
    expectedSchemaRevision: schemaRevision,
    recordTrigger: null,
    recordSources: [
      {
        query: { typeId: deal.id, filters: [{ fieldId: deal.field('Probability'), op: 'lt', value: 20 }] },
        events: ['record.deleted'],
      },
      { query: { typeId: contactTypeId, search: 'acme' }, events: ['record.created'] },
    ],
    recordOwnerUserId: max,
  });

  const read = async (view: { id: string }): Promise<Read> => ({
    view,
    secrets: await admin.ok('GET', `/app/api/webhooks/${view.id}/secrets`),
  });

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'fields@example.com' })).client;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
    const model = await api('POST', '/model/read', { type: 'deal' });
    deal = {
      id: model.type.id,
      field: (name) => model.type.fields.find((field: { name: string }) => field.name === name).id,
    };
    contactTypeId = (await api('POST', '/model/read', { type: 'contact' })).type.id;
    mia = (await memberWithRole(admin, app.baseUrl, 'mia@example.com', {})).userId;
    max = (await memberWithRole(admin, app.baseUrl, 'max@example.com', {})).userId;

    transports.set('REST', {
      create: (body) => api('POST', '/webhooks', body),
      get: (id) => api('GET', `/webhooks/${id}`),
      update: (id, body) => api('PATCH', `/webhooks/${id}`, body),
      list: async () => (await api('GET', '/webhooks?limit=200')).data,
    });
    const mcp = await connectMcp(app.baseUrl, adminKey);
    // listTools caches each outputSchema: the SDK client then checks every answer against it.
    await mcp.client.listTools();
    closeMcp.push(() => mcp.client.close());
    const manage = async (args: Record<string, unknown>) => {
      const result = await mcp.call('manage_webhooks', args);
      if (result.isError) {
        throw new Error(
          `manage_webhooks ${args.action}: ${JSON.stringify(result)}${serverErrorsAt(app.baseUrl)}`,
        );
      }
      return result.structuredContent;
    };
    transports.set('MCP', {
      create: (body) => manage({ action: 'create', ...body }),
      get: (id) => manage({ action: 'get', id }),
      update: (id, body) => manage({ action: 'update', id, ...body }),
      list: async () => (await manage({ action: 'list', limit: 200 })).data,
    });
    transports.set('web app', {
      create: (body) => admin.ok('POST', '/app/api/webhooks', body),
      get: (id) => admin.ok('GET', `/app/api/webhooks/${id}`),
      update: (id, body) => admin.ok('PATCH', `/app/api/webhooks/${id}`, body),
      list: async () => (await admin.ok('GET', '/app/api/webhooks?limit=200')).data,
    });
  });
  afterAll(async () => {
    for (const close of closeMcp) await close();
    await app?.close();
  });

  it('the samples send every field of the request schemas, each with another value in each, and not its default', async () => {
    expect(Object.keys(first(1)).sort()).toEqual(FIELDS);
    expect(Object.keys(second(2)).sort()).toEqual(FIELDS);
    // An update may send every field a create may.
    expect(Object.keys(updateWebhookBody.shape).sort()).toEqual(FIELDS);
    // Each update changes every field.
    expect(FIELDS.filter((field) => isDeepStrictEqual(first(1)[field], second(2)[field]))).toEqual([]);
    // A webhook created without them reads as the defaults; each field differs from its default in
    // at least one sample (recordTrigger and recordSources cannot both be set, enabled is a boolean).
    const bare = await read(
      await api('POST', '/webhooks', {
        url: 'https://bare.example.com/in',
        events: ['messaging.email.received'],
      }),
    );
    const differing = new Set(
      [first(await revision()), second(await revision())].flatMap((sample) =>
        mismatches(bare, sample).map((mismatch) => mismatch.field),
      ),
    );
    expect(FIELDS.filter((field) => !differing.has(field))).toEqual([]);
  });

  it('docs/api.md names every field where it lists a create: POST /api/v1/webhooks and manage_webhooks create', () => {
    const lines = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8').split('\n');
    for (const row of ['| `POST /api/v1/webhooks` |', '| `create` |']) {
      const line = lines.find((candidate) => candidate.startsWith(row)) ?? '';
      const unnamed = FIELDS.filter((field) => !new RegExp(`\\b${field}\\b`).test(line));
      expect({ row, unnamed }).toEqual({ row, unnamed: [] });
    }
  });

  describe.each(['REST', 'MCP', 'web app'])('%s', (name) => {
    it.each([
      ['recordTrigger first', first, second],
      ['recordSources first', second, first],
    ])(
      'creates with every field set, reads it, updates every field, reads and lists it (%s)',
      async (_order, created, updated) => {
        const transport = transports.get(name)!;
        const create = created(await revision());
        const answer = await transport.create(create);
        expect({ afterCreate: mismatches(await read(answer), create) }).toEqual({ afterCreate: [] });
        const got = await transport.get(answer.id);
        expect({ getAfterCreate: mismatches(await read(got), create) }).toEqual({ getAfterCreate: [] });

        await raiseRevision();
        const update = updated(await revision());
        expect(update.expectedSchemaRevision).not.toBe(create.expectedSchemaRevision);
        const changed = await transport.update(answer.id, update);
        expect({ afterUpdate: mismatches(await read(changed), update) }).toEqual({ afterUpdate: [] });
        const again = await transport.get(answer.id);
        expect({ getAfterUpdate: mismatches(await read(again), update) }).toEqual({ getAfterUpdate: [] });
        const listed = (await transport.list()).find((webhook) => webhook.id === answer.id);
        expect(listed).toBeDefined();
        expect({ listAfterUpdate: mismatches(await read(listed), update) }).toEqual({ listAfterUpdate: [] });
      },
    );
  });
});
