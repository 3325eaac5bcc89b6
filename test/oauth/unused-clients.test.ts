import { OAuthClientLimits1764658800000 } from '../../src/app/db/migrations/2025-12-01-to-02-morning/1764658800000-oauth-client-limits';
import { migrations } from '../../src/app/db/migrations';
import { OAuthConnection } from '../../src/oauth/oauth-connection.entity';
import { hashOAuthId } from '../../src/oauth/oauth-adapter';
import { OAuthStoreRow } from '../../src/oauth/oauth-store.entity';
import { removeUnusedOAuthClients } from '../../src/oauth/registration/unused-clients';
import {
  authorizationUrl,
  authorizeWithoutBrowser,
  mcpWithToken,
  pkce,
  registerClient,
  startRedirectListener,
  tokenRequest,
  type RedirectListener,
} from '../helpers/oauth';
import { createTestDatabase } from '../helpers/database';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 24, item 4: registered clients nobody uses do not pile up. A client's use is what is issued
 * to it after a person consented (grant, code, tokens), noted on its row at most once an hour; the
 * sweep removes clients registered over 30 days ago and unused since, with their connections and
 * tokens. Time is driven by moving the stored registration and use times back.
 */
describe('clients nobody uses are removed', () => {
  let app: TestApp;
  let redirect: RedirectListener;
  let person: WebClient;
  let workspaceId: string;

  beforeAll(async () => {
    app = await startTestApp();
    redirect = await startRedirectListener();
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'ines@acme.test', workspaceName: 'Acme' });
    person = signedUp.client;
    workspaceId = signedUp.session.workspace.id;
  });
  afterAll(async () => {
    await redirect?.close();
    await app?.close();
  });

  const register = (name: string) => registerClient(app.baseUrl, redirect.url, name);

  /** The person consents for Acme and the client exchanges the code: its tokens. */
  async function connect(client: { client_id: string }) {
    const { verifier, challenge } = pkce();
    const result = await authorizeWithoutBrowser(app.baseUrl, {
      url: authorizationUrl(app.baseUrl, client, redirect.url, challenge),
      sessionCookie: person.sessionCookie,
      answer: { allow: workspaceId },
    });
    const code = new URL(result.location!).searchParams.get('code')!;
    const tokens = await tokenRequest(app.baseUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect.url,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    return tokens.body as { access_token: string; refresh_token: string };
  }

  const refresh = (client: { client_id: string }, refreshToken: string) =>
    tokenRequest(app.baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.client_id,
    });

  /** An authorization request nobody answers: the consent page opens, and that is all. */
  async function openConsentPage(client: { client_id: string }) {
    const start = await fetch(authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge), {
      redirect: 'manual',
    });
    return { status: start.status, location: start.headers.get('location') };
  }

  const clientRow = (client: { client_id: string }) =>
    app.dataSource.manager.findOneBy(OAuthStoreRow, {
      model: 'Client',
      idHash: hashOAuthId(client.client_id),
    });

  /** Moves the client's registration `days` back. */
  async function registeredAgo(client: { client_id: string }, days: number) {
    await app.dataSource.query(
      `UPDATE oauth_store
          SET payload = jsonb_set(payload, '{client_id_issued_at}',
                to_jsonb(extract(epoch FROM now() - make_interval(days => $2))::bigint))
        WHERE model = 'Client' AND id_hash = $1`,
      [hashOAuthId(client.client_id), days],
    );
  }

  /** Moves the client's last use `days` back. */
  async function lastUsedAgo(client: { client_id: string }, days: number) {
    await app.dataSource.query(
      `UPDATE oauth_store SET last_used_at = now() - make_interval(days => $2)
        WHERE model = 'Client' AND id_hash = $1`,
      [hashOAuthId(client.client_id), days],
    );
  }

  /** Every stored row of the client: its registration and what was issued to it. */
  const storedOf = async (client: { client_id: string }) =>
    Number(
      (
        await app.dataSource.query(
          `SELECT count(*) AS n FROM oauth_store WHERE payload->>'client_id' = $1 OR payload->>'clientId' = $1`,
          [client.client_id],
        )
      )[0].n,
    );

  it('notes a client’s use when something is issued to it after consent, at most once an hour', async () => {
    const client = await register('Used now and then');
    expect((await clientRow(client))!.lastUsedAt).toBeNull();
    // Opening consent pages nobody answers is no use: it cannot keep a client alive.
    expect((await openConsentPage(client)).status).toBe(303);
    expect((await clientRow(client))!.lastUsedAt).toBeNull();

    const tokens = await connect(client);
    const used = (await clientRow(client))!.lastUsedAt!;
    expect(used).toBeInstanceOf(Date);

    // Within the hour, another token writes nothing.
    await app.dataSource.query(
      `UPDATE oauth_store SET last_used_at = now() - interval '10 minutes' WHERE model = 'Client' AND id_hash = $1`,
      [hashOAuthId(client.client_id)],
    );
    const tenMinutesAgo = (await clientRow(client))!.lastUsedAt!;
    const refreshed = await refresh(client, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await clientRow(client))!.lastUsedAt).toEqual(tenMinutesAgo);

    // After it, the next token notes the use again.
    await app.dataSource.query(
      `UPDATE oauth_store SET last_used_at = now() - interval '2 hours' WHERE model = 'Client' AND id_hash = $1`,
      [hashOAuthId(client.client_id)],
    );
    expect((await refresh(client, refreshed.body.refresh_token as string)).status).toBe(200);
    expect((await clientRow(client))!.lastUsedAt!.getTime()).toBeGreaterThan(tenMinutesAgo.getTime());
  });

  it('removes clients registered over 30 days ago and unused since, with their connections and tokens, and keeps the rest', async () => {
    const fresh = await register('Registered today, never used');
    const idle = await register('Registered 40 days ago, never used');
    const lured = await register('Registered 40 days ago, only consent pages opened');
    const active = await register('Registered 40 days ago, used today');
    const recent = await register('Registered 100 days ago, used 10 days ago');
    const lapsed = await register('Registered 100 days ago, used 40 days ago');

    await openConsentPage(lured);
    await openConsentPage(lured);
    const activeTokens = await connect(active);
    const recentTokens = await connect(recent);
    const lapsedTokens = await connect(lapsed);
    for (const old of [idle, lured, active]) await registeredAgo(old, 40);
    // The active client's use is the one its tokens just noted.
    for (const older of [recent, lapsed]) await registeredAgo(older, 100);
    await lastUsedAgo(recent, 10);
    await lastUsedAgo(lapsed, 40);
    // The lapsed client's connection still exists and its tokens still work, until the sweep.
    expect((await mcpWithToken(app.baseUrl, lapsedTokens.access_token)).status).toBe(200);
    expect(await storedOf(lapsed)).toBeGreaterThan(1);

    expect(await removeUnusedOAuthClients(app.dataSource)).toBe(3);

    for (const gone of [idle, lured, lapsed]) {
      expect(await clientRow(gone)).toBeNull();
      expect(await storedOf(gone)).toBe(0);
      // Its id is unknown now: no consent page, no token.
      expect(await openConsentPage(gone)).toMatchObject({ status: 400, location: null });
    }
    expect(await app.dataSource.manager.countBy(OAuthConnection, { clientId: lapsed.client_id })).toBe(0);
    expect((await mcpWithToken(app.baseUrl, lapsedTokens.access_token)).status).toBe(401);
    expect(await refresh(lapsed, lapsedTokens.refresh_token)).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    const apps = (await person.ok('GET', '/app/api/connected-apps')) as { data: { clientName: string }[] };
    expect(apps.data.map((each) => each.clientName)).not.toContain(lapsed.client_name);

    for (const kept of [fresh, active, recent]) expect(await clientRow(kept)).not.toBeNull();
    expect((await openConsentPage(fresh)).status).toBe(303);
    expect((await mcpWithToken(app.baseUrl, activeTokens.access_token)).status).toBe(200);
    expect((await refresh(recent, recentTokens.refresh_token)).status).toBe(200);

    // Nothing more to remove.
    expect(await removeUnusedOAuthClients(app.dataSource)).toBe(0);
  });

  it('counts clients registered before the upgrade as used at the upgrade, so none is swept on its first run', async () => {
    const db = await createTestDatabase(2, { migrate: false });
    const runner = db.dataSource.createQueryRunner();
    try {
      for (const Migration of migrations.slice(0, migrations.indexOf(OAuthClientLimits1764658800000))) {
        await new Migration().up(runner);
      }
      const registeredLongAgo = Math.floor(Date.now() / 1000) - 400 * 24 * 60 * 60;
      await runner.query(`INSERT INTO oauth_store (model, id_hash, payload) VALUES ('Client', 'h', $1)`, [
        JSON.stringify({ client_id: 'in-use-for-a-year', client_id_issued_at: registeredLongAgo }),
      ]);
      await new OAuthClientLimits1764658800000().up(runner);
      expect(await removeUnusedOAuthClients(db.dataSource)).toBe(0);
      // Thirty days on, unused since the upgrade, it goes.
      expect(
        await removeUnusedOAuthClients(db.dataSource, new Date(Date.now() + 31 * 24 * 60 * 60 * 1000)),
      ).toBe(1);
    } finally {
      await runner.release();
      await db.drop();
    }
  });
});
