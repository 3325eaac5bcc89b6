import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * docs/api.md#idempotent-writes: the same key from the same key owner within 24 h returns the first
 * answer.
 */
describe('idempotent REST writes', () => {
  let app: TestApp;
  let key: string;

  const post = async (body: Record<string, unknown>, headers: Record<string, string> = {}, withKey = key) => {
    const response = await fetch(`${app.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': withKey, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      body: (await response.json()) as any,
    };
  };
  const count = async () => Number((await app.dataSource.query(`SELECT count(*) FROM webhooks`))[0].count);
  const hook = { url: 'https://example.com/idem', events: ['record.created'] };

  beforeAll(async () => {
    app = await startTestApp();
    key = (
      await (
        await WebClient.signUp(app.baseUrl, { email: 'idem@example.com' })
      ).client.ok('POST', '/app/api/api-keys', { name: 'k' })
    ).value;
  });
  afterAll(() => app.close());

  it('answers a repeated write with the first answer instead of writing again (header)', async () => {
    const first = await post(hook, { 'Idempotency-Key': 'create-1' });
    const again = await post(hook, { 'Idempotency-Key': 'create-1' });
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, replayed: 'true', body: first.body });
    expect(await count()).toBe(1);
  });

  it('takes the key from the body too, without it counting as an unknown field', async () => {
    const first = await post({ ...hook, idempotencyKey: 'create-2' });
    const again = await post({ ...hook, idempotencyKey: 'create-2' });
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await count()).toBe(2);
  });

  it('replays a refusal, and refuses a key reused for another request', async () => {
    const refused = await post({ ...hook, url: 'mailto:x@y.z' }, { 'Idempotency-Key': 'bad-1' });
    expect(refused.status).toBe(400);
    expect(await post({ ...hook, url: 'mailto:x@y.z' }, { 'Idempotency-Key': 'bad-1' })).toMatchObject({
      status: 400,
      replayed: 'true',
    });
    const reused = await post({ ...hook, description: 'different' }, { 'Idempotency-Key': 'create-1' });
    expect(reused.status).toBe(409);
    expect(reused.body.error.issues[0].customCode).toBe('idempotencyKeyReused');
  });

  it('keeps each key owner’s keys apart, and forgets them after 24 hours', async () => {
    const other = (
      await (
        await WebClient.signUp(app.baseUrl, { email: 'other@example.com' })
      ).client.ok('POST', '/app/api/api-keys', { name: 'k' })
    ).value;
    expect((await post(hook, { 'Idempotency-Key': 'create-1' }, other)).status).toBe(201);
    await app.dataSource.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`);
    const later = await post(hook, { 'Idempotency-Key': 'create-1' });
    expect(later.status).toBe(201);
    expect(later.replayed).toBeNull();
  });
});
