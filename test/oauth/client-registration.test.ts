import { createHash } from 'node:crypto';
import { OAuthStoreRow } from '../../src/oauth/oauth-store.entity';
import {
  authorizationUrl,
  authorizeWithoutBrowser,
  clientMetadata,
  freshLoopbackAddress,
  pkce,
  postRegistration,
  startRedirectListener,
  tokenRequest,
  type RedirectListener,
} from '../helpers/oauth';
import { startSecondApiProcess, startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 24, item 4: dynamic client registration (RFC 7591) cannot be flooded or abused, from the
 * side of whoever registers: at most 10 registrations an hour per client address, counted in
 * PostgreSQL so two API processes share the count; a few redirect URIs, each https or on loopback;
 * a short, visible name. Every refusal stores nothing. Requests come from loopback addresses of
 * their own (127.1.x.y), one address per "client machine".
 */
describe('client registration: what is refused', () => {
  let app: TestApp;
  let second: { baseUrl: string; close: () => Promise<void> };
  let redirect: RedirectListener;

  beforeAll(async () => {
    app = await startTestApp();
    // A second API process on the same database, as the production topology runs two.
    second = await startSecondApiProcess(app);
    redirect = await startRedirectListener();
  });
  afterAll(async () => {
    await redirect?.close();
    await second?.close();
    await app?.close();
  });

  const metadata = (name = 'Flood client') => clientMetadata(['https://app.example/cb'], name);
  const storedRows = () => app.dataSource.manager.count(OAuthStoreRow);
  const storedClients = () => app.dataSource.manager.countBy(OAuthStoreRow, { model: 'Client' });

  it('a flood from one address: 10 registered, 50 answered 429 with Retry-After, and nothing of theirs stored', async () => {
    const from = freshLoopbackAddress();
    const before = await storedRows();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => postRegistration(app.baseUrl, metadata(`Flood ${i}`), { from })),
    );
    const registered = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(registered).toHaveLength(10);
    expect(refused).toHaveLength(50);
    for (const answer of refused) {
      expect(answer.body).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    // One row per registration (no registration access token), and none for a refused one.
    expect(await storedRows()).toBe(before + 10);

    // Still refused: a plain retry, and the same endpoint spelt as oidc-provider's router also
    // accepts it (any case, a trailing slash).
    for (const path of ['/oauth/reg', '/oauth/REG', '/oauth/reg/', '/oauth/Reg/']) {
      expect(await postRegistration(app.baseUrl, metadata(), { from, path })).toMatchObject({ status: 429 });
    }
    expect(await storedRows()).toBe(before + 10);
  });

  it('those other spellings do reach the registration endpoint (so the limit must count them)', async () => {
    const from = freshLoopbackAddress();
    const clients = await storedClients();
    for (const path of ['/oauth/REG', '/oauth/reg/']) {
      expect(await postRegistration(app.baseUrl, metadata(), { from, path })).toMatchObject({ status: 201 });
    }
    expect(await storedClients()).toBe(clients + 2);
  });

  it('another address is not held back by the flood', async () => {
    const answer = await postRegistration(app.baseUrl, metadata('Neighbour'), {
      from: freshLoopbackAddress(),
    });
    expect(answer).toMatchObject({ status: 201, body: { client_name: 'Neighbour' } });
    expect(answer.body.registration_access_token).toBeUndefined();
  });

  it('two API processes count in one place: the second refuses what the first used up', async () => {
    const from = freshLoopbackAddress();
    for (let i = 0; i < 10; i++) {
      const baseUrl = i % 2 ? second.baseUrl : app.baseUrl;
      expect(await postRegistration(baseUrl, metadata(), { from })).toMatchObject({ status: 201 });
    }
    const clients = await storedClients();
    expect(await postRegistration(second.baseUrl, metadata(), { from })).toMatchObject({
      status: 429,
      body: { error: 'too_many_requests' },
    });
    expect(await postRegistration(app.baseUrl, metadata(), { from })).toMatchObject({ status: 429 });
    expect(await storedClients()).toBe(clients);
  });

  it.each([
    [
      '11 redirect URIs',
      Array.from({ length: 11 }, (_, i) => `https://app.example/cb/${i}`),
      'invalid_redirect_uri',
    ],
    [
      '1,000 redirect URIs',
      Array.from({ length: 1000 }, (_, i) => `https://app.example/${i}`),
      'invalid_redirect_uri',
    ],
    ['a plain-http redirect URI off loopback', ['http://evil.example/callback'], 'invalid_redirect_uri'],
    ['http on another loopback address', ['http://127.0.0.2:4000/callback'], 'invalid_redirect_uri'],
    ['a fragment', ['https://app.example/cb#token'], 'invalid_redirect_uri'],
    ['a user name that reads as a host', ['https://claude.ai@evil.example/cb'], 'invalid_redirect_uri'],
    ['a custom scheme', ['myapp://callback'], 'invalid_redirect_uri'],
  ])('refuses %s, storing nothing', async (_what, redirectUris, error) => {
    const clients = await storedRows();
    const answer = await postRegistration(app.baseUrl, clientMetadata(redirectUris, 'Looks fine'), {
      from: freshLoopbackAddress(),
    });
    expect(answer).toMatchObject({ status: 400, body: { error, error_description: expect.any(String) } });
    expect(await storedRows()).toBe(clients);
  });

  it.each([
    ['a 500-character name', 'Claude '.repeat(72).slice(0, 500)],
    ['an empty name', ''],
    ['a name with a newline', 'Claude\n— will return you to claude.ai'],
    ['a name with a NUL', 'Claude\u0000'],
    ['a name with a right-to-left override', 'Claude \u202eia.edualc'],
  ])('refuses %s, storing nothing', async (_what, name) => {
    const clients = await storedRows();
    const answer = await postRegistration(app.baseUrl, clientMetadata(['https://app.example/cb'], name), {
      from: freshLoopbackAddress(),
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata', error_description: expect.stringMatching(/^client_name /) },
    });
    expect(await storedRows()).toBe(clients);
  });

  // Issue 34, item 7: invisible format characters (Unicode Cf) passed, so a client could register
  // "Claude\u200b" and show as Claude on the consent page.
  it.each([
    ['a zero-width space', 'Claude\u200b', 'U+200B'],
    ['a zero-width joiner inside', 'Cla\u200dude', 'U+200D'],
    ['a word joiner', '\u2060Claude', 'U+2060'],
    ['a byte order mark', '\ufeffClaude', 'U+FEFF'],
    ['a soft hyphen', 'Clau\u00adde', 'U+00AD'],
    ['a left-to-right embedding', 'Claude\u202a', 'U+202A'],
  ])('refuses a name with %s, storing nothing', async (_what, name, code) => {
    const rows = await storedRows();
    const answer = await postRegistration(app.baseUrl, clientMetadata(['https://app.example/cb'], name), {
      from: freshLoopbackAddress(),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'invalid_client_metadata',
      error_description: `client_name must not contain control, direction or other invisible characters (${code})`,
    });
    expect(await storedRows()).toBe(rows);
  });

  // Issue 34, item 7: a NUL in a metadata URI reached PostgreSQL's JSON store and answered 500.
  it.each([
    [
      'redirect_uris',
      { redirect_uris: ['https://app.example/cb\u0000'] },
      'invalid_redirect_uri',
      'redirect_uris[0]',
    ],
    [
      'redirect_uris, a loopback one',
      { redirect_uris: ['http://127.0.0.1:4000/\u0000'] },
      'invalid_redirect_uri',
      'redirect_uris[0]',
    ],
    ['client_uri', { client_uri: 'https://app.example/\u0000' }, 'invalid_client_metadata', 'client_uri'],
    ['logo_uri', { logo_uri: 'https://app.example/logo.png\u0000' }, 'invalid_client_metadata', 'logo_uri'],
    [
      'policy_uri',
      { policy_uri: 'https://app.example/\u0000policy' },
      'invalid_client_metadata',
      'policy_uri',
    ],
    ['tos_uri', { tos_uri: 'https://app.example/tos\u0000' }, 'invalid_client_metadata', 'tos_uri'],
    ['jwks_uri', { jwks_uri: 'https://app.example/jwks\u0000' }, 'invalid_client_metadata', 'jwks_uri'],
    ['contacts', { contacts: ['ops\u0000@app.example'] }, 'invalid_client_metadata', 'contacts[0]'],
  ])('refuses a NUL in %s with 400, storing nothing', async (_field, extra, error, at) => {
    const rows = await storedRows();
    const answer = await postRegistration(
      app.baseUrl,
      { ...clientMetadata(['https://app.example/cb'], 'Looks fine'), ...extra },
      { from: freshLoopbackAddress() },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error,
      error_description: `${at} must not contain control characters (NUL, line breaks and the like)`,
    });
    expect(await storedRows()).toBe(rows);
  });

  // Issue 34, item 7: an authorization request's parameters are stored with its interaction; a NUL
  // in one answered 500. Refused as invalid_request, returned to the client's redirect URI
  // (RFC 6749 section 4.1.2.1), nothing stored.
  it.each([['state'], ['login_hint'], ['ui_locales']])(
    'refuses a NUL in the authorization request’s %s, storing nothing',
    async (parameter) => {
      const registered = await postRegistration(
        app.baseUrl,
        clientMetadata(['https://app.example/cb'], 'NUL probe'),
        { from: freshLoopbackAddress() },
      );
      expect(registered.status).toBe(201);
      const rows = await storedRows();
      const { challenge } = pkce();
      const url = new URL(
        authorizationUrl(
          app.baseUrl,
          { client_id: registered.body.client_id },
          'https://app.example/cb',
          challenge,
        ),
      );
      url.searchParams.set(parameter, 'a\u0000b');
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe('https://app.example/cb');
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toBe(
        'parameters must not contain NUL characters',
      );
      expect(location.searchParams.get('code')).toBeNull();
      expect(await storedRows()).toBe(rows);
    },
  );

  it('accepts loopback redirect URIs on any port (RFC 8252) beside https ones, and the flow returns to one', async () => {
    const loopback = [redirect.url, 'http://[::1]:8123/callback', 'http://localhost:33418/callback'];
    const answer = await postRegistration(
      app.baseUrl,
      clientMetadata([...loopback, 'https://app.example/cb'], 'Desktop assistant'),
      { from: freshLoopbackAddress() },
    );
    expect(answer).toMatchObject({
      status: 201,
      body: { redirect_uris: [...loopback, 'https://app.example/cb'] },
    });

    const { client: person, session } = await WebClient.signUp(app.baseUrl, { email: 'lena@acme.test' });
    const client = { client_id: answer.body.client_id as string };
    const { verifier, challenge } = pkce();
    const result = await authorizeWithoutBrowser(app.baseUrl, {
      url: authorizationUrl(app.baseUrl, client, redirect.url, challenge),
      sessionCookie: person.sessionCookie,
      answer: { allow: session.workspace.id },
    });
    expect(result.location?.startsWith(`${redirect.url}?`)).toBe(true);
    const code = new URL(result.location!).searchParams.get('code')!;
    const tokens = await tokenRequest(app.baseUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect.url,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
  });

  it('a client stored before these rules, with a plain-http redirect URI, no longer gets a consent page', async () => {
    // As an attacker's registration from before the change was stored: valid for oidc-provider then.
    const clientId = 'legacy-attacker-client';
    await app.dataSource.query(
      `INSERT INTO oauth_store (model, id_hash, payload) VALUES ('Client', $1, $2)`,
      [
        createHash('sha256').update(clientId).digest('hex'),
        JSON.stringify({
          ...clientMetadata(['http://evil.example/callback'], 'Claude'),
          client_id: clientId,
          client_id_issued_at: Math.floor(Date.now() / 1000),
        }),
      ],
    );
    const { challenge } = pkce();
    const start = await fetch(
      authorizationUrl(app.baseUrl, { client_id: clientId }, 'http://evil.example/callback', challenge),
      { redirect: 'manual' },
    );
    expect(start.status).toBe(400);
    expect(await start.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    expect(start.headers.get('location')).toBeNull();
  });
});
