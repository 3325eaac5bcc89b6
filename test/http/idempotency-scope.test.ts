import { Client } from 'pg';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, rest, WebClient } from '../helpers/web-client';
import { crashAfterCommitOf } from './crash-window';

/**
 * Issue 10, holes 3 and 4: a stored answer belongs to one workspace, key owner, method and route,
 * and it commits with the write it answers, so a crash right after the commit cannot strand it.
 */
describe('idempotency: scope and crash safety (REST)', () => {
  let app: TestApp;
  let keyA: string;
  let keyB: string;
  let workspaceA: string;
  let workspaceB: string;

  const post = async (key: string, body: Record<string, unknown>, idempotencyKey: string) => {
    const response = await fetch(`${app.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      body: (text ? JSON.parse(text) : undefined) as any,
    };
  };
  const webhookIds = async (workspaceId: string) =>
    (
      (await app.dataSource.query(`SELECT id FROM webhooks WHERE workspace_id = $1 ORDER BY created_at`, [
        workspaceId,
      ])) as { id: string }[]
    ).map((row) => row.id);

  beforeAll(async () => {
    app = await startTestApp();
    // One person, Admin in A (their own) and in B (invited): one API key in each workspace.
    const person = await WebClient.signUp(app.baseUrl, {
      email: 'two-homes@example.com',
      workspaceName: 'A',
    });
    const host = await WebClient.signUp(app.baseUrl, { email: 'host-b@example.com', workspaceName: 'B' });
    const adminRole = (await host.client.ok('GET', '/app/api/roles')).data.find(
      (role: { name: string }) => role.name === 'Admin',
    );
    keyA = (await person.client.ok('POST', '/app/api/api-keys', { name: 'in A' })).value;
    // Accepting the invitation while signed in switches the person's session to B.
    await addMemberByInvitation(app.baseUrl, host.client, {
      email: 'two-homes@example.com',
      roleId: adminRole.id,
      signedIn: person.client,
    });
    await person.client.ok('POST', '/app/api/session/workspace', { workspaceId: host.session.workspace.id });
    keyB = (await person.client.ok('POST', '/app/api/api-keys', { name: 'in B' })).value;
    workspaceA = (await rest(app.baseUrl, keyA)).body.workspace.id;
    workspaceB = (await rest(app.baseUrl, keyB)).body.workspace.id;
    expect(workspaceB).not.toBe(workspaceA);
  });
  afterAll(() => app.close());

  it('never answers a write in one workspace with the stored answer of another', async () => {
    const hook = { url: 'https://example.com/scoped', events: ['record.created'] };
    const inB = await post(keyB, hook, 'same-key');
    expect(inB.status).toBe(201);
    const inA = await post(keyA, hook, 'same-key');
    expect(inA.status).toBe(201);
    expect(inA.replayed).toBeNull();
    expect(inA.body.id).not.toBe(inB.body.id);
    expect(await webhookIds(workspaceA)).toEqual([inA.body.id]);
    expect(await webhookIds(workspaceB)).toEqual([inB.body.id]);
    // Within its own scope the key still replays, and another body under it is refused.
    expect(await post(keyA, hook, 'same-key')).toMatchObject({ status: 201, replayed: 'true' });
    const reused = await post(keyA, { ...hook, description: 'other' }, 'same-key');
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({ kind: 'conflict' });
    expect(reused.body.error.issues[0].customCode).toBe('idempotencyKeyReused');
  });

  it('keeps the same key on another route apart (method and route are part of the scope)', async () => {
    const created = await post(
      keyA,
      { url: 'https://example.com/route', events: ['record.created'] },
      'route-key',
    );
    const patched = await fetch(`${app.baseUrl}/api/v1/webhooks/${created.body.id}`, {
      method: 'PATCH',
      headers: { 'x-api-key': keyA, 'content-type': 'application/json', 'idempotency-key': 'route-key' },
      body: JSON.stringify({ description: 'changed' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('idempotent-replayed')).toBeNull();
    expect(((await patched.json()) as any).description).toBe('changed');
  });

  it('lets two simultaneous sends of one key write once, both answering the same webhook', async () => {
    const before = (await webhookIds(workspaceA)).length;
    const hook = { url: 'https://example.com/race', events: ['record.created'] };
    // Hold inserts into webhooks so that both sends are inside the service at the same time.
    const holder = new Client({ connectionString: (app.dataSource.options as { url: string }).url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE webhooks IN SHARE ROW EXCLUSIVE MODE');
    const both = Promise.all([post(keyA, hook, 'race-key'), post(keyA, hook, 'race-key')]);
    let settled = false;
    void both.finally(() => (settled = true));
    try {
      for (let i = 0; i < 60 && !settled; i += 1) {
        const { rows } = await holder.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0].waiting >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const [one, two] = await both;
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.body.id).toBe(two.body.id);
    expect((await webhookIds(workspaceA)).length).toBe(before + 1);
  });

  it('answers a retry after a crash right after the commit with what was created, creating nothing twice', async () => {
    const before = await webhookIds(workspaceA);
    const hook = { url: 'https://example.com/crash', events: ['record.created'] };
    const crash = crashAfterCommitOf(app.dataSource, 'webhooks');
    let first;
    try {
      first = await post(keyA, hook, 'crash-key');
    } finally {
      await crash.restore();
    }
    expect(crash.fired()).toBe(true);
    const created = (await webhookIds(workspaceA)).filter((id) => !before.includes(id));
    expect(created).toHaveLength(1);
    // The first answer may or may not have reached the client; the retry must tell the id.
    expect([201, 500]).toContain(first.status);
    const retry = await post(keyA, hook, 'crash-key');
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(created[0]);
    expect(retry.replayed).toBe('true');
    expect((await webhookIds(workspaceA)).filter((id) => !before.includes(id))).toEqual(created);
  });
});
