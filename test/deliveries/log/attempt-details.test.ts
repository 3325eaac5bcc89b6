import { createHash } from 'node:crypto';
import { DeliveryAttemptsRepository } from '../../../src/deliveries/store/delivery-attempts.repository';
import { ATTEMPT_BODY_DISPLAY_MAX_BYTES, MASKED_VALUE } from '../../../src/shared/deliveries/attempt-record';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { memberWithRole, type WebClient } from '../../helpers/web-client';

const SECRET = 'attempt-details-secret';
const TEAM_HEADER_VALUE = 'growth-team-token-7731';
const AMOUNT = 424242;

/**
 * Issue 13, "See what was sent and what came back": each send of an attempt keeps the request's
 * headers as sent (signature and custom header values masked), the body as sent or its SHA-256 and
 * size, and the receiver's headers (capped, credentials masked) — never the receiver's body. A record
 * event's body is shown only to the webhook's record owner and administrators, and a permanent
 * deletion erases it.
 */
describe('what was sent and what came back (Event Details)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let webhook: any;
  let deal: any;
  let created: any;
  let restricted: { key: string; client: WebClient };

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const details = async (deliveryId: string, key?: string) => {
    const answer = await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${deliveryId}`, undefined, key);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const sentFor = (recordId: string) =>
    receiver.received.find((request) => request.json?.data?.record?.ref?.recordId === recordId)!;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    receiver.replies('/hook', {
      status: 200,
      headers: {
        'Set-Cookie': ['sid=receiver-session-1; HttpOnly', 'theme=dark'],
        'X-Request-Id': 'req-1',
        'X-Auth-Token': 'receiver-token-9',
      },
    });
    webhook = await fx.webhook(`${receiver.url}/hook`, {
      secret: SECRET,
      headers: { 'X-Team': TEAM_HEADER_VALUE },
    });
    deal = await fx.createDeal('Acme renewal', { [fx.field('Amount')]: AMOUNT });
    [created] = await fx.deliveriesOf(webhook.id);
    await fx.finish(created.id);
    // A member whose role hides Amount.
    restricted = await memberWithRole(fx.admin, fx.app.baseUrl, 'noamount@example.com', {
      restrictedFieldIds: [fx.field('Amount')],
    });
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  it('keeps the request as sent: headers with secrets masked, the exact body, its SHA-256 and size', async () => {
    const sent = sentFor(deal.id);
    const answer = await details(created.id);
    const [attempt] = answer.attemptHistory;
    expect(attempt.request.headers).toEqual([
      { name: 'Content-Type', value: 'application/json' },
      { name: 'User-Agent', value: sent.headers['user-agent'] },
      { name: 'X-Service-Delivery-Id', value: created.id },
      { name: 'X-Webhook-Event', value: 'record.created' },
      { name: 'X-Webhook-Signature', value: MASKED_VALUE },
      // Standard Webhooks, on by default for a new webhook (issue 37, item 4): its signature masked too.
      { name: 'webhook-id', value: sent.headers['webhook-id'] },
      { name: 'webhook-timestamp', value: sent.headers['webhook-timestamp'] },
      { name: 'webhook-signature', value: MASKED_VALUE },
      { name: 'X-Team', value: MASKED_VALUE },
      { name: 'Content-Length', value: String(sent.rawBody.length) },
    ]);
    expect(attempt.request).toMatchObject({
      body: sent.rawBody.toString('utf8'),
      bodySha256: sha256(sent.rawBody),
      bodyBytes: sent.rawBody.length,
      bodyWithheld: null,
    });
    const text = JSON.stringify(answer);
    expect(text).not.toContain(TEAM_HEADER_VALUE);
    expect(text).not.toContain(sent.headers['x-webhook-signature'] as string);
    expect(text).not.toContain(sent.headers['webhook-signature'] as string);
  });

  it('keeps what came back: headers with credentials masked, never the receiver’s body', async () => {
    const answer = await details(created.id);
    expect(answer.attemptHistory[0].response).toEqual({
      headers: expect.arrayContaining([
        { name: 'Set-Cookie', value: MASKED_VALUE },
        { name: 'X-Request-Id', value: 'req-1' },
        { name: 'X-Auth-Token', value: MASKED_VALUE },
      ]),
      omittedHeaders: 0,
    });
    const setCookies = answer.attemptHistory[0].response.headers.filter(
      (header: { name: string }) => header.name === 'Set-Cookie',
    );
    expect(setCookies).toHaveLength(2);
    const text = JSON.stringify(answer);
    for (const secret of ['receiver-session-1', 'receiver-token-9', 'receiver body that must not be stored'])
      expect(text).not.toContain(secret);
    const [row] = await fx.app.dataSource.query(
      `SELECT request_headers::text AS request, response_headers::text AS response FROM delivery_attempts WHERE delivery_id = $1`,
      [created.id],
    );
    // Masked before it is stored, not only when it is shown.
    expect(`${row.request} ${row.response}`).not.toMatch(/growth-team-token|receiver-session|receiver-token/);
  });

  it('shows a record event’s body, hash and size to no one whose role hides a field of the event', async () => {
    const sent = sentFor(deal.id);
    const expectWithheld = (answer: any) => {
      // No hash or size either: with the payload they may read, a hash would test guesses of the value.
      expect(answer.attemptHistory[0].request).toMatchObject({
        body: null,
        bodySha256: null,
        bodyBytes: null,
        bodyWithheld: { reason: 'viewerAccess', message: expect.stringContaining('record owner') },
      });
      // Content-Length would tell the size: masked too.
      expect(answer.attemptHistory[0].request.headers).toContainEqual({
        name: 'Content-Length',
        value: MASKED_VALUE,
      });
      expect(JSON.stringify(answer)).not.toContain(sha256(sent.rawBody));
      // The hidden value is nowhere in the answer: not in the payload, not in the request kept.
      expect(JSON.stringify(answer)).not.toContain(String(AMOUNT));
    };
    expectWithheld(await details(created.id, restricted.key));
    expectWithheld(
      await restricted.client.ok('GET', `/app/api/webhooks/${webhook.id}/deliveries/${created.id}`),
    );
    const mcp = await connectMcp(fx.app.baseUrl, restricted.key, { readOnly: true });
    try {
      await mcp.client.listTools(); // the SDK then checks the answer against get_delivery's outputSchema
      const got = await mcp.call('get_delivery', { deliveryId: created.id });
      expect(got.isError).toBeFalsy();
      expectWithheld(got.structuredContent);
      expect(JSON.stringify(got.content)).not.toContain(String(AMOUNT));
    } finally {
      await mcp.client.close();
    }
    // The Admin (who made the webhook) sees the value it was sent with.
    expect((await details(created.id)).attemptHistory[0].request.body).toContain(String(AMOUNT));
  });

  it('shows the body to a member who is not the owner but whose access hides nothing of the event', async () => {
    const reader = await memberWithRole(fx.admin, fx.app.baseUrl, 'reader@example.com', {});
    const sent = sentFor(deal.id);
    expect((await details(created.id, reader.key)).attemptHistory[0].request).toMatchObject({
      body: sent.rawBody.toString('utf8'),
      bodySha256: sha256(sent.rawBody),
      bodyWithheld: null,
    });
  });

  it('shows a messaging event’s body as sent to every reader', async () => {
    const messaging = await fx.webhook(`${receiver.url}/messaging`, {
      events: ['messaging.message.received'],
    });
    const sample = await fx.api('POST', `/webhooks/${messaging.id}/test`, {
      event: 'messaging.message.received',
    });
    expect(sample.status).toBe(201);
    await fx.finish(sample.body.id);
    const answer = await fx.api(
      'GET',
      `/webhooks/${messaging.id}/deliveries/${sample.body.id}`,
      undefined,
      restricted.key,
    );
    const received = receiver.received.find((request) => request.path === '/messaging')!;
    expect(answer.body.attemptHistory[0].request).toMatchObject({
      body: received.rawBody.toString('utf8'),
      bodyWithheld: null,
    });
  });

  it('keeps only the SHA-256 and size of a body over the display limit', async () => {
    // Eight copies of the payload, with a 10,000-character name: about 90 KB, under the 128 KiB limit.
    const keys = 'abcdefgh'.split('').map((k) => `"${k}":"{{data}}"`);
    const big = await fx.webhook(`${receiver.url}/big`, {
      events: ['record.created'],
      bodyTemplate: `{${keys.join(',')}}`,
    });
    await fx.createDeal('x'.repeat(10_000));
    const [delivery] = await fx.deliveriesOf(big.id);
    await fx.finish(delivery!.id);
    const sent = receiver.received.find((request) => request.path === '/big')!;
    expect(sent.rawBody.length).toBeGreaterThan(ATTEMPT_BODY_DISPLAY_MAX_BYTES);
    const answer = await fx.api('GET', `/webhooks/${big.id}/deliveries/${delivery!.id}`);
    expect(answer.body.attemptHistory[0].request).toMatchObject({
      body: null,
      bodySha256: sha256(sent.rawBody),
      bodyBytes: sent.rawBody.length,
      bodyWithheld: { reason: 'overDisplayLimit' },
    });
  });

  it('erases the kept bodies with the record on a permanent delete, keeping hash and size', async () => {
    const sent = sentFor(deal.id);
    expect((await fx.api('POST', `/records/deal/${deal.id}/trash`)).status).toBe(200);
    expect((await fx.api('DELETE', `/records/deal/${deal.id}`)).status).toBe(204);
    const answer = await details(created.id);
    expect(answer.attemptHistory[0].request).toMatchObject({
      body: null,
      bodySha256: sha256(sent.rawBody),
      bodyBytes: sent.rawBody.length,
      bodyWithheld: { reason: 'erased' },
    });
    const rows = await fx.app.dataSource.query(
      `SELECT a.request_body FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
        WHERE d.element->>'recordId' = $1`,
      [deal.id],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.request_body).toBeNull();
    const everything = await fx.app.dataSource.query(
      `SELECT count(*)::int AS n FROM delivery_attempts WHERE request_body LIKE '%Acme renewal%'`,
    );
    expect(everything[0].n).toBe(0);
  });
  it('keeps no body for a send that records itself after the record’s erasure committed (the race)', async () => {
    // The record was erased above; an attempt that read the event before the scrub records its
    // send only now: the row keeps hash and size, never the body.
    await new DeliveryAttemptsRepository(fx.app.dataSource.manager).startSend(
      { deliveryId: created.id, attempt: 1, send: 99, url: webhook.url, startedAt: new Date() },
      { headers: [], body: '{"name":"Acme renewal"}', bodySha256: 'f'.repeat(64), bodyBytes: 23 },
      created.eventId,
    );
    const [row] = await fx.app.dataSource.query(
      `SELECT request_body, request_body_sha256, request_body_erased_at FROM delivery_attempts
        WHERE delivery_id = $1 AND send = 99`,
      [created.id],
    );
    expect(row).toMatchObject({ request_body: null, request_body_sha256: 'f'.repeat(64) });
    expect(row.request_body_erased_at).toBeInstanceOf(Date);
  });
});
