import { readFileSync } from 'node:fs';
import { METHODS, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type Router from '@koa/router';
import Koa from 'koa';
import type { z } from 'zod';
import { createApp } from '../../src/app/http-app';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/app/openapi/document';
import { openapiRoutes } from '../../src/app/openapi/openapi.routes';
import { OPERATIONS, openApiDocumentSchema } from '../../src/app/openapi/paths';
import { refusalSchema } from '../../src/http/view-schemas';
import { jsonRpcResponseSchema, mcpRefusalSchema } from '../../src/mcp/mcp.openapi';
import { webhookViewSchema } from '../../src/webhooks/webhook-view';
import { createWebhookExample } from '../../src/webhooks/webhooks.openapi';
import { createLogger } from '../../src/logger';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

type Answer = { status: number; headers: Headers; body: any };

/**
 * `GET /api/v1/openapi.json`: a well-formed OpenAPI 3.1 document that covers every route under
 * /api/v1, whose response schemas hold for the real answers of the service.
 */
describe('OpenAPI document', () => {
  let app: TestApp;
  let key: string;
  let document: OpenApiDocument;
  let served: Answer;
  /** Set when app.ts does not mount openapiRoutes() yet: the router then runs on a bare Koa app. */
  let bare: Server | undefined;

  const request = async (
    method: string,
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        ...(options.key ? { 'x-api-key': options.key } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };

  const specOf = (operationId: string) => {
    const spec = OPERATIONS.find((operation) => operation.operationId === operationId);
    if (!spec) throw new Error(`no operation ${operationId}`);
    return spec;
  };

  /** The body parses with the documented schema and loses nothing: no undocumented field. */
  const expectDocumented = (schema: z.ZodType, body: unknown) => {
    expect(schema.parse(body)).toEqual(body);
  };

  /**
   * Calls an operation as the document describes it; expects its documented success status and
   * checks the body against the zod schema the document was generated from.
   */
  const call = async (operationId: string, params: Record<string, string> = {}, body?: unknown) => {
    const spec = specOf(operationId);
    const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
    const answer = await request(spec.method.toUpperCase(), path, { key, body });
    if (answer.status !== spec.success.status) {
      throw new Error(`${operationId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const documented = document.paths[spec.path]![spec.method]!.responses[spec.success.status]!;
    if (spec.success.schema) {
      expect(documented.content).toBeDefined();
      expectDocumented(spec.success.schema, answer.body);
    } else {
      expect(answer.body).toBeUndefined();
    }
    return answer.body;
  };

  /** A real refusal: a documented status, the Refusal body, and customCodes the operation lists. */
  const expectRefusal = (operationId: string, answer: Answer, customCode: string) => {
    const spec = specOf(operationId);
    const documented = document.paths[spec.path]![spec.method]!.responses[answer.status];
    expect(documented).toBeDefined();
    expectDocumented(refusalSchema, answer.body);
    const codes = answer.body.error.issues.map((issue: { customCode?: string }) => issue.customCode);
    expect(codes).toContain(customCode);
    for (const code of codes) expect(documented!['x-custom-codes']).toContain(code);
  };

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'openapi@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'openapi' })).value;

    served = await request('GET', '/api/v1/openapi.json');
    if (served.status === 404) {
      const koa = new Koa();
      const router = openapiRoutes();
      koa.use(router.routes()).use(router.allowedMethods());
      bare = koa.listen(0, '127.0.0.1');
      await new Promise((resolve) => bare!.once('listening', resolve));
      const response = await fetch(
        `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/v1/openapi.json`,
      );
      served = { status: response.status, headers: response.headers, body: await response.json() };
    }
    document = served.body;
  });
  afterAll(async () => {
    if (bare) await new Promise((resolve) => bare!.close(resolve));
    await app.close();
  });

  it('is served as JSON without an API key, and is the document the code builds', () => {
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expectDocumented(openApiDocumentSchema, document);
  });

  it('has the shape of OpenAPI 3.1: every $ref resolves, every operation is named and answered', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.paths['/api/v1/openapi.json']!.get!.security).toEqual([]);

    const resolve = (ref: string) =>
      ref
        .replace(/^#\//, '')
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<any>((node, part) => node?.[part], document);
    const refs: string[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(collect);
      if (typeof node !== 'object' || node === null) return;
      for (const [name, value] of Object.entries(node)) {
        if (name === '$ref') refs.push(value as string);
        else collect(value);
      }
    };
    collect(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\//);
      expect([ref, resolve(ref)]).toEqual([ref, expect.anything()]);
    }

    const ids = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect([where, operation.operationId]).toEqual([where, expect.stringMatching(/^\w+$/)]);
        expect(ids.has(operation.operationId)).toBe(false);
        ids.add(operation.operationId);
        expect([where, operation.summary]).toEqual([where, expect.any(String)]);
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
        const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        expect([where, declared.sort()]).toEqual([where, templated.sort()]);
        if (operation.security === undefined) {
          // Keyed: the key's refusals are documented.
          expect([where, Object.keys(operation.responses)]).toEqual([
            where,
            expect.arrayContaining(['401', '403', '429', '500']),
          ]);
          expect(operation.responses['429']!.headers).toHaveProperty('Retry-After');
        }
      }
    }
  });

  it('documents every route under /api/v1 that the app registers, and no other', () => {
    const koa = createApp({
      config: app.config,
      logger: createLogger('silent'),
      dataSource: app.dataSource,
      temporal: {
        connection: app.env.connection,
        client: app.env.client,
        namespace: app.env.namespace ?? 'default',
        taskQueue: 'test',
        eagerStart: false,
      },
    });
    const routers = koa.middleware
      .map((middleware) => (middleware as { router?: Router }).router)
      .filter((router): router is Router => router !== undefined);
    if (bare) routers.push(openapiRoutes());

    const registered = new Set<string>();
    const anyMethod = new Set<string>();
    for (const router of routers) {
      for (const layer of router.stack) {
        if (typeof layer.path !== 'string' || !layer.path.startsWith('/api/v1') || !layer.methods.length)
          continue;
        const path = layer.path.replace(/:(\w+)/g, '{$1}');
        if (METHODS.every((method) => layer.methods.includes(method))) {
          anyMethod.add(path); // router.all(): documented by the methods that do something
          continue;
        }
        for (const method of layer.methods) if (method !== 'HEAD') registered.add(`${method} ${path}`);
      }
    }
    expect(registered.size).toBeGreaterThan(20);

    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const missing = [...registered].filter((route) => !documented.has(route));
    expect(missing).toEqual([]);
    for (const path of anyMethod) expect(Object.keys(document.paths)).toContain(path);
    const unknown = [...documented].filter(
      (route) => !registered.has(route) && !anyMethod.has(route.split(' ')[1]!),
    );
    expect(unknown).toEqual([]);
  });

  it('lists every customCode of docs/api.md', () => {
    const api = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    const table = api.slice(
      api.indexOf('| customCode |'),
      api.indexOf('\n\n', api.indexOf('| customCode |')),
    );
    const listed = [...table.matchAll(/`([a-z][A-Za-z]+)`/g)].map((match) => match[1]!);
    expect(listed.length).toBeGreaterThan(40);
    const inResponses = JSON.stringify(document.paths);
    const missing = listed.filter(
      (code) => !inResponses.includes(`"${code}"`) && !document.info.description.includes(`\`${code}\``),
    );
    expect(missing).toEqual([]);
  });

  it('gives request examples that the request schemas accept', () => {
    for (const spec of OPERATIONS) {
      if (!spec.body) continue;
      const result = spec.body.schema.safeParse(spec.body.example);
      expect([spec.operationId, result.success]).toEqual([spec.operationId, true]);
      const documented = document.paths[spec.path]![spec.method]!.requestBody as any;
      expect(documented.content['application/json'].example).toEqual(spec.body.example);
    }
  });

  it('accepts the documented example for creating a webhook, and answers documented bodies', async () => {
    const example = (document.paths['/api/v1/webhooks']!.post!.requestBody as any).content['application/json']
      .example;
    expect(example).toEqual(createWebhookExample);
    const created = await call('createWebhook', {}, example);
    expect(created).toMatchObject({ url: example.url, hasSecret: true, headerNames: ['X-Billing-Token'] });

    const page = await call('listWebhooks');
    expect(page.data.map((webhook: { id: string }) => webhook.id)).toContain(created.id);
    await call('getWebhook', { id: created.id });
    const updated = await call('updateWebhook', { id: created.id }, { enabled: false });
    expectDocumented(webhookViewSchema, updated);
    await call('deleteWebhook', { id: created.id });
  });

  it('answers identity, model and record bodies that match their documented schemas', async () => {
    await call('getMe');
    const discovered = await call('discoverModel', {}, {});
    expect(discovered.types.length).toBeGreaterThan(0);
    const { type: deal } = await call('readModelType', {}, { type: 'deal' });
    const field = (name: string) => deal.fields.find((f: { name: string }) => f.name === name)!.id as string;

    const created = await call(
      'createRecord',
      { type: 'deal' },
      {
        values: { [field('Name')]: 'Documented deal', [field('Amount')]: 1200, [field('Probability')]: 50 },
        identities: [{ kind: 'email', value: 'buyer@example.com' }],
      },
    );
    await call('getRecord', { type: 'deal', id: created.id });
    await call('updateRecord', { type: 'deal', id: created.id }, { values: { [field('Stage')]: 'Won' } });
    const page = await call('listRecords', { type: 'deal' });
    expect(page.data.map((record: { id: string }) => record.id)).toContain(created.id);
    await call('trashRecord', { type: 'deal', id: created.id });
    await call('restoreRecord', { type: 'deal', id: created.id });

    const type = await call('createRecordType', {}, { name: 'Documented projects' });
    await call('renameRecordType', { id: type.id }, { name: 'Documented client projects' });
    const budget = await call('createRecordField', { id: type.id }, { name: 'Budget', kind: 'number' });
    await call('updateRecordField', { id: budget.id }, { name: 'Budget (EUR)' });
    await call('deleteRecordField', { id: budget.id });
    await call('deleteRecordType', { id: type.id });
  });

  it('answers delivery bodies that match their documented schemas', async () => {
    // Nothing listens on port 9 (discard), and no worker runs here: the delivery stays Pending.
    const webhook = await call(
      'createWebhook',
      {},
      { url: 'http://127.0.0.1:9/openapi', events: ['record.created'] },
    );
    const { type: task } = await call('readModelType', {}, { type: 'task' });
    await call(
      'createRecord',
      { type: 'task' },
      {
        values: { [task.fields.find((f: { name: string }) => f.name === 'Title').id]: 'Delivered somewhere' },
      },
    );

    let page = await call('listWebhookDeliveries', { id: webhook.id });
    for (let tries = 0; page.data.length === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = await call('listWebhookDeliveries', { id: webhook.id });
    }
    expect(page.data).toHaveLength(1);
    const [delivery] = page.data;
    expect(delivery).toMatchObject({ webhookId: webhook.id, event: 'record.created', status: 'pending' });
    await call('listDeliveries');
    await call('getDeliveryDetails', { id: webhook.id, deliveryId: delivery.id });
    expectRefusal(
      'resendDelivery',
      await request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/resend`, { key }),
      'deliveryNotFinished',
    );
    expectRefusal(
      'retryDeliveryNow',
      await request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry-now`, { key }),
      'deliveryNotRetrying',
    );
    await call('deleteWebhook', { id: webhook.id });
  });

  it('answers refusals in the documented Refusal body, with customCodes the operation lists', async () => {
    expectRefusal('getMe', await request('GET', '/api/v1/me'), 'apiKeyMissing');
    expectRefusal(
      'createWebhook',
      await request('POST', '/api/v1/webhooks', {
        key,
        body: { url: 'mailto:a@example.com', events: ['x.y'] },
      }),
      'webhookUrlSchemeNotAllowed',
    );
    expectRefusal(
      'getWebhook',
      await request('GET', '/api/v1/webhooks/00000000-0000-4000-8000-000000000000', { key }),
      'webhookNotFound',
    );
    expectRefusal(
      'listRecords',
      await request('GET', `/api/v1/records/deal?filters=${encodeURIComponent('[{')}`, { key }),
      'queryFiltersInvalid',
    );
    expectRefusal(
      'readModelType',
      await request('POST', '/api/v1/model/read', { key, body: { type: 'nope' } }),
      'recordTypeNotFound',
    );
  });

  it('documents the MCP refusals: its own body without a key, 406 without the Accept header', async () => {
    const mcp = document.paths['/api/v1/mcp']!.post!;
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const withoutKey = await request('POST', '/api/v1/mcp', {
      body: message,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(withoutKey.status).toBe(401);
    expect(mcp.responses['401']).toBeDefined();
    expectDocumented(mcpRefusalSchema, withoutKey.body);

    const withoutAccept = await request('POST', '/api/v1/mcp', { key, body: message });
    expect(withoutAccept.status).toBe(406);
    expect(mcp.responses['406']).toBeDefined();
    expectDocumented(jsonRpcResponseSchema, withoutAccept.body);

    const listed = await request('POST', '/api/v1/mcp', {
      key,
      body: message,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(listed.status).toBe(200);
    expectDocumented(jsonRpcResponseSchema, listed.body);
  });
});
