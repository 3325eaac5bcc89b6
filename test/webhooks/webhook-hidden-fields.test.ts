import { Webhook } from '../../src/webhooks/webhook.entity';
import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, memberWithRole, WebClient } from '../helpers/web-client';
import { withoutIds } from '../helpers/without-ids';

/**
 * Issue 24, item 5, from the attacker's side: Sam's role hides Amount (and Weighted amount, a
 * formula of it). He reads an Admin's webhook that filters deals on `Amount > 31337` over REST,
 * the web app's /app/api and MCP, and never sees 31337: the filter keeps its field and operator,
 * its value and the hidden watched fields read `********`. Writing what he read back changes
 * nothing; a mask moved to another field, operator or source is refused, and so is a value of his
 * own on the hidden field. A reader who can read Amount still sees it.
 */
const MASK = '********';
const SECRET = 31337;
const leaks = (answer: unknown) =>
  withoutIds(typeof answer === 'string' ? answer : JSON.stringify(answer)).includes(String(SECRET));

describe('hidden fields stay hidden in webhook reads', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;
  let sam: { key: string; web: WebClient; userId: string };
  let ritaKey: string;
  let revision: number;
  let deal: string;
  let field: (name: string) => string;
  /** The Admin's webhooks: one trigger, and two sources. */
  let triggerHook: any;
  let sourcesHook: any;
  /** Sam's own webhook, set up while his role could still read Amount. */
  let samsHook: any;

  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body?.error?.issues?.[0]?.customCode,
    result.body?.error?.issues?.[0]?.path?.join('.'),
  ];
  /** What the database holds of a webhook's record settings: a refused call leaves it as it was. */
  const stored = async (id: string) => {
    const row = await app.dataSource.manager.findOneByOrFail(Webhook, { id });
    return {
      recordTrigger: row.recordTrigger,
      recordSources: row.recordSources,
      sourcesVersion: row.sourcesVersion,
      url: row.url,
      events: row.events,
    };
  };

  const amountFilters = () => [
    { fieldId: field('Stage'), op: 'eq', value: 'Won' },
    { fieldId: field('Amount'), op: 'gt', value: SECRET },
    { fieldId: field('Weighted amount'), op: 'lt', value: SECRET },
    { fieldId: field('Amount'), op: 'in', value: [SECRET, SECRET + 1] },
    { fieldId: field('Amount'), op: 'isNotEmpty' },
  ];
  const trigger = () => ({
    query: { typeId: deal, search: 'renewal', filters: amountFilters() },
    changedFieldIds: [field('Amount'), field('Stage'), field('Weighted amount')],
  });
  /** The trigger as Sam reads it. */
  const maskedTrigger = () => ({
    query: {
      typeId: deal,
      search: 'renewal',
      filters: [
        { fieldId: field('Stage'), op: 'eq', value: 'Won' },
        { fieldId: field('Amount'), op: 'gt', value: MASK },
        { fieldId: field('Weighted amount'), op: 'lt', value: MASK },
        { fieldId: field('Amount'), op: 'in', value: MASK },
        { fieldId: field('Amount'), op: 'isNotEmpty' },
      ],
    },
    changedFieldIds: [MASK, field('Stage'), MASK],
  });

  beforeAll(async () => {
    app = await startTestApp();
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'admin@example.com', name: 'Ada Admin' });
    admin = signedUp.client;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
    const model = (await api(adminKey, 'POST', '/model/read', { type: 'deal' })).body;
    revision = model.schemaRevision;
    deal = model.type.id;
    field = (name) => model.type.fields.find((f: { name: string }) => f.name === name).id;

    const role = await admin.ok('POST', '/app/api/roles', {
      name: 'Sales',
      apiRead: 'all',
      apiCreate: true,
      apiEdit: true,
      apiDelete: true,
    });
    const signedIn = await addMemberByInvitation(app.baseUrl, admin, {
      email: 'sam@example.com',
      roleId: role.id,
    });
    const samKey = (await signedIn.client.ok('POST', '/app/api/api-keys', { name: 'sam' })).value as string;
    sam = { key: samKey, web: signedIn.client, userId: signedIn.session.user.id };
    ritaKey = (await memberWithRole(admin, app.baseUrl, 'rita@example.com', { apiEdit: true })).key;

    const create = async (body: Record<string, unknown>) => {
      const created = await api(adminKey, 'POST', '/webhooks', {
        events: ['record.created', 'record.updated'],
        expectedSchemaRevision: revision,
        ...body,
      });
      expect(created.status).toBe(201);
      return created.body;
    };
    triggerHook = await create({ url: 'https://erp.example.com/in', recordTrigger: trigger() });
    sourcesHook = await create({
      url: 'https://bi.example.com/in',
      recordSources: [
        { query: { typeId: deal, filters: [{ fieldId: field('Probability'), op: 'gt', value: 10 }] } },
        { ...trigger(), events: ['record.updated'] },
      ],
    });
    // While Sam could read Amount; then his role stops reading it.
    samsHook = await create({
      url: 'https://sam.example.com/in',
      recordTrigger: trigger(),
      recordOwnerUserId: sam.userId,
    });
    await admin.ok('PATCH', `/app/api/roles/${role.id}`, { restrictedFieldIds: [field('Amount')] });
  });
  afterAll(() => app.close());

  it('REST: get and list show the field and operator of a hidden filter, never its value', async () => {
    const read = await api(sam.key, 'GET', `/webhooks/${triggerHook.id}`);
    expect(read.status).toBe(200);
    expect(read.body.recordTrigger).toEqual(maskedTrigger());
    expect(leaks(read.text)).toBe(false);

    const sources = await api(sam.key, 'GET', `/webhooks/${sourcesHook.id}`);
    expect(sources.body.recordSources).toEqual([
      sourcesHook.recordSources[0],
      { ...maskedTrigger(), events: ['record.updated'] },
    ]);
    expect(leaks(sources.text)).toBe(false);

    const listed = await api(sam.key, 'GET', '/webhooks?limit=100');
    expect(listed.body.data).toHaveLength(3);
    expect(leaks(listed.text)).toBe(false);
    expect(listed.body.data.find((w: { id: string }) => w.id === samsHook.id).recordTrigger).toEqual(
      maskedTrigger(),
    );
  });

  it('REST: the Admin and a member who can read Amount see the filter as before', async () => {
    for (const key of [adminKey, ritaKey]) {
      const read = await api(key, 'GET', `/webhooks/${triggerHook.id}`);
      expect(read.body.recordTrigger).toEqual(trigger());
      const listed = await api(key, 'GET', '/webhooks?limit=100');
      expect(listed.body.data.find((w: { id: string }) => w.id === sourcesHook.id).recordSources).toEqual(
        sourcesHook.recordSources,
      );
    }
  });

  it('the web app’s /app/api reads masked too', async () => {
    const read = await sam.web.request<any>('GET', `/app/api/webhooks/${triggerHook.id}`);
    expect(read.status).toBe(200);
    expect(read.body.recordTrigger).toEqual(maskedTrigger());
    const listed = await sam.web.request<any>('GET', '/app/api/webhooks?limit=100');
    expect(listed.body.data).toHaveLength(3);
    expect(leaks([read.body, listed.body])).toBe(false);
  });

  it('MCP: manage_webhooks get and list, get_webhook and list_webhooks read masked', async () => {
    const mcp = await connectMcp(app.baseUrl, sam.key);
    const reader = await connectMcp(app.baseUrl, sam.key, { readOnly: true });
    try {
      const answers = [
        await mcp.call('manage_webhooks', { action: 'get', id: triggerHook.id }),
        await mcp.call('manage_webhooks', { action: 'list' }),
        await reader.call('get_webhook', { id: sourcesHook.id }),
        await reader.call('list_webhooks', {}),
      ];
      for (const answer of answers) expect(answer.isError).toBeFalsy();
      expect(answers[0]!.structuredContent.recordTrigger).toEqual(maskedTrigger());
      expect(answers[2]!.structuredContent.recordSources[1].query.filters[1]).toEqual({
        fieldId: field('Amount'),
        op: 'gt',
        value: MASK,
      });
      // The whole answer: the text an assistant reads and the structured content.
      expect(leaks(answers)).toBe(false);
    } finally {
      await mcp.client.close();
      await reader.client.close();
    }
  });

  it('writing back what was read keeps the saved values, over REST, /app/api and MCP', async () => {
    const before = [await stored(triggerHook.id), await stored(sourcesHook.id)];
    // A read-modify-write of every field read, as a client that edits the description does.
    const asRead = async (id: string) => {
      const { url, events, enabled, recordTrigger, recordSources, recordOwnerUserId } = (
        await api(sam.key, 'GET', `/webhooks/${id}`)
      ).body;
      return { url, events, enabled, recordTrigger, recordSources, recordOwnerUserId };
    };
    for (const hook of [triggerHook, sourcesHook]) {
      const rest = await api(sam.key, 'PATCH', `/webhooks/${hook.id}`, {
        ...(await asRead(hook.id)),
        description: 'via REST',
      });
      expect([rest.status, rest.body.description]).toEqual([200, 'via REST']);
      expect(leaks(rest.text)).toBe(false);
      const web = await sam.web.request<any>('PATCH', `/app/api/webhooks/${hook.id}`, {
        ...(await asRead(hook.id)),
        description: 'via the web app',
      });
      expect(web.status).toBe(200);
    }
    const mcp = await connectMcp(app.baseUrl, sam.key);
    try {
      const updated = await mcp.call('manage_webhooks', {
        action: 'update',
        id: triggerHook.id,
        ...(await asRead(triggerHook.id)),
        description: 'via MCP',
      });
      expect(updated.isError).toBeFalsy();
      expect(updated.structuredContent.recordTrigger).toEqual(maskedTrigger());
    } finally {
      await mcp.client.close();
    }
    expect([await stored(triggerHook.id), await stored(sourcesHook.id)]).toEqual(before);
    expect((await api(adminKey, 'GET', `/webhooks/${triggerHook.id}`)).body).toMatchObject({
      description: 'via MCP',
      recordTrigger: trigger(),
    });
  });

  it('the owner whose role hides Amount since keeps its filter when writing back what was read', async () => {
    const before = await stored(samsHook.id);
    const read = (await api(sam.key, 'GET', `/webhooks/${samsHook.id}`)).body;
    expect(read.recordTrigger).toEqual(maskedTrigger());
    const moved = await api(sam.key, 'PATCH', `/webhooks/${samsHook.id}`, {
      url: 'https://sam.example.com/v2',
      recordTrigger: read.recordTrigger,
    });
    expect(moved.status).toBe(200);
    expect(await stored(samsHook.id)).toEqual({ ...before, url: 'https://sam.example.com/v2' });
    expect((await stored(samsHook.id)).recordTrigger!.query.filters![1]!.value).toBe(SECRET);
  });

  it('refuses a mask moved to another field, operator or source, or a value of his own, and changes nothing', async () => {
    const before = [await stored(triggerHook.id), await stored(sourcesHook.id), await stored(samsHook.id)];
    const withFilter = (index: number, filter: Record<string, unknown>) => {
      const moved = maskedTrigger();
      moved.query.filters[index] = filter as never;
      return moved;
    };
    const MOVED = (at: string) => [400, 'webhookMaskUnmatched', at];
    const patch = (id: string, body: unknown) => api(sam.key, 'PATCH', `/webhooks/${id}`, body);

    // To another hidden field, another operator: the mask stands for no saved value there.
    for (const hook of [triggerHook, samsHook]) {
      const toWeighted = withFilter(1, { fieldId: field('Weighted amount'), op: 'gt', value: MASK });
      expect(refusal(await patch(hook.id, { recordTrigger: toWeighted }))).toEqual(
        MOVED('recordTrigger.query.filters.1.value'),
      );
      const toLt = withFilter(1, { fieldId: field('Amount'), op: 'lt', value: MASK });
      expect(refusal(await patch(hook.id, { recordTrigger: toLt }))).toEqual(
        MOVED('recordTrigger.query.filters.1.value'),
      );
      const oneMoreWatched = { ...maskedTrigger(), changedFieldIds: [MASK, field('Stage'), MASK, MASK] };
      expect(refusal(await patch(hook.id, { recordTrigger: oneMoreWatched }))).toEqual(
        MOVED('recordTrigger.changedFieldIds.3'),
      );
    }
    // To another source (the first of the Admin's two sources has no such filter).
    const sources = (await api(sam.key, 'GET', `/webhooks/${sourcesHook.id}`)).body.recordSources;
    expect(refusal(await patch(sourcesHook.id, { recordSources: [sources[1], sources[0]] }))).toEqual(
      MOVED('recordSources.0.query.filters.1.value'),
    );
    // A new webhook has no saved value at all.
    const created = await api(sam.key, 'POST', '/webhooks', {
      url: 'https://sam.example.com/new',
      events: ['record.updated'],
      expectedSchemaRevision: revision,
      recordTrigger: maskedTrigger(),
    });
    expect(refusal(created)).toEqual(MOVED('recordTrigger.query.filters.1.value'));

    // A value of his own on Amount: not his to set on the Admin's webhook, nor on his own.
    const ownValue = withFilter(1, { fieldId: field('Amount'), op: 'gt', value: 1 });
    expect(refusal(await patch(triggerHook.id, { recordTrigger: ownValue }))).toEqual([
      403,
      'webhookOwnedByAnother',
      'recordTrigger',
    ]);
    expect(
      refusal(await patch(samsHook.id, { recordTrigger: ownValue, expectedSchemaRevision: revision })),
    ).toEqual([400, 'webhookFieldRestricted', 'recordTrigger.query.filters.1.fieldId']);
    // A mask on a field he can read is a value like any other (and not a number).
    const onProbability = withFilter(0, { fieldId: field('Probability'), op: 'gt', value: MASK });
    expect(
      refusal(await patch(samsHook.id, { recordTrigger: onProbability, expectedSchemaRevision: revision })),
    ).toEqual([400, 'queryValueInvalid', 'recordTrigger.query.filters.0.value']);

    // The same through the web app and MCP.
    const toLt = withFilter(1, { fieldId: field('Amount'), op: 'lt', value: MASK });
    expect(
      refusal(await sam.web.request('PATCH', `/app/api/webhooks/${triggerHook.id}`, { recordTrigger: toLt })),
    ).toEqual(MOVED('recordTrigger.query.filters.1.value'));
    const mcp = await connectMcp(app.baseUrl, sam.key);
    try {
      const viaMcp = await mcp.call('manage_webhooks', {
        action: 'update',
        id: triggerHook.id,
        recordTrigger: toLt,
      });
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp._meta!.failure).toMatchObject({
        kind: 'validation',
        issues: [
          { customCode: 'webhookMaskUnmatched', path: ['recordTrigger', 'query', 'filters', 1, 'value'] },
        ],
      });
    } finally {
      await mcp.client.close();
    }

    expect([await stored(triggerHook.id), await stored(sourcesHook.id), await stored(samsHook.id)]).toEqual(
      before,
    );
    expect(await app.dataSource.manager.count(Webhook)).toBe(3);
  });
});
