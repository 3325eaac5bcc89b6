import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** What reached the client's redirect URI: a code, or an error (RFC 6749 section 4.1.2). */
export type Redirected = { code?: string; state?: string; error?: string; iss?: string };

/** The chat assistant's side of the redirect: an HTTP listener on loopback. */
export interface RedirectListener {
  url: string;
  /** The next request's query, resolved when it arrives. */
  next: () => Promise<Redirected>;
  close: () => Promise<void>;
}

export async function startRedirectListener(): Promise<RedirectListener> {
  const waiting: ((value: Redirected) => void)[] = [];
  const arrived: Redirected[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // A browser also asks this origin for /favicon.ico: only the redirect URI counts.
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const value: Redirected = Object.fromEntries(url.searchParams.entries());
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    const resolve = waiting.shift();
    if (resolve) resolve(value);
    else arrived.push(value);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The official SDK's `OAuthClientProvider`, in memory, as a chat assistant keeps it: the client
 * registration, the tokens, the PKCE verifier. `redirectToAuthorization` only records the URL:
 * the test opens it (in Chromium, or with `authorizeWithoutBrowser`).
 */
export class TestOAuthClientProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    private readonly redirectUri: string,
    private readonly name: string,
  ) {}

  get redirectUrl() {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  /** What a client does when the server says its tokens or registration no longer hold. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A tiny cookie jar: what a browser would send back to the service. */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const path = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='));
      this.cookies.set(name!.trim(), { value: value.join('='), path: path ? path.slice(5) : '/' });
    }
  }

  /** The Cookie header for `path`, as a browser would compute it from the cookies' paths. */
  header(path: string): string {
    return [...this.cookies]
      .filter(([, cookie]) => path === cookie.path || path.startsWith(cookie.path.replace(/\/?$/, '/')))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  /** Adds a cookie the way a signed-in web app session has it (the `crm_session` cookie). */
  set(name: string, value: string): void {
    this.cookies.set(name, { value, path: '/' });
  }
}

let loopbackAddresses = 0;

/**
 * A loopback address of its own (Linux routes all of 127.0.0.0/8 to this machine), to send from:
 * registrations are limited per client address, and separate assistants come from separate
 * addresses.
 */
export function freshLoopbackAddress(): string {
  loopbackAddresses += 1;
  return `127.1.${Math.floor(loopbackAddresses / 250)}.${(loopbackAddresses % 250) + 1}`;
}

export interface RegistrationAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Record<string, any>;
}

/**
 * `POST /oauth/reg` (or `path`) with a JSON body, sent from the loopback address `from`: the
 * status, headers and JSON answer.
 */
export function postRegistration(
  baseUrl: string,
  metadata: unknown,
  options: { from: string; path?: string },
): Promise<RegistrationAnswer> {
  const body = JSON.stringify(metadata);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(options.path ?? '/oauth/reg', baseUrl),
      {
        method: 'POST',
        localAddress: options.from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: text ? JSON.parse(text) : {},
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A public client's registration metadata (RFC 7591) with these redirect URIs. */
export const clientMetadata = (redirectUris: string[], name = 'Attacker test client') => ({
  client_name: name,
  redirect_uris: redirectUris,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
});

/**
 * Dynamic registration (RFC 7591) of a public client with one redirect URI, from a loopback address
 * of its own (`from`, or a fresh one), so a test's many clients stay within the per-address limit.
 */
export async function registerClient(
  baseUrl: string,
  redirectUri: string,
  name = 'Attacker test client',
  from = freshLoopbackAddress(),
) {
  const answer = await postRegistration(baseUrl, clientMetadata([redirectUri], name), { from });
  if (answer.status !== 201)
    throw new Error(`registration answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as { client_id: string; client_name: string };
}

/** `POST /oauth/token` with a form body; the status and the JSON answer. */
export async function tokenRequest(baseUrl: string, form: Record<string, string>) {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A JSON-RPC `tools/list` at the MCP endpoint with a bearer token: the status, body and header. */
export async function mcpWithToken(baseUrl: string, token: string) {
  const response = await fetch(`${baseUrl}/api/v1/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as any,
    wwwAuthenticate: response.headers.get('www-authenticate'),
  };
}

export interface BrowserlessAuthorization {
  /** The authorization request's URL (client_id, redirect_uri, PKCE, resource, state, scope). */
  url: string;
  /** The web app session of the person who answers (`crm_session` cookie value). */
  sessionCookie: string;
  /** What the person answers on the consent page: a workspace, and whether the app may only read. */
  answer: { allow: string; readOnly?: boolean } | 'deny';
}

/**
 * The browser's part of the authorization code flow, with fetch and a cookie jar: the
 * authorization request, the consent page's routes (with the interaction cookie the
 * authorization server set, the session cookie and the service's Origin), then the resume, up
 * to the redirect to the client. Answers the consent route's refusal when it refuses.
 */
export async function authorizeWithoutBrowser(baseUrl: string, flow: BrowserlessAuthorization) {
  const jar = new CookieJar();
  jar.set('crm_session', flow.sessionCookie);
  const start = await fetch(flow.url, { redirect: 'manual' });
  jar.take(start);
  const consentUrl = start.headers.get('location');
  if (start.status !== 303 || !consentUrl?.startsWith('/consent/')) {
    return { refusedAt: 'authorize' as const, status: start.status, location: consentUrl };
  }
  const consentPath = new URL(consentUrl, baseUrl).pathname;
  const decide = flow.answer === 'deny' ? 'deny' : 'allow';
  const answer = await fetch(`${baseUrl}${consentPath}/${decide}`, {
    method: 'POST',
    headers: {
      cookie: jar.header(`${consentPath}/${decide}`),
      origin: baseUrl,
      'content-type': 'application/json',
    },
    body: JSON.stringify(
      flow.answer === 'deny'
        ? {}
        : {
            workspaceId: flow.answer.allow,
            ...(flow.answer.readOnly === undefined ? {} : { readOnly: flow.answer.readOnly }),
          },
    ),
  });
  const answered = (await answer.json()) as any;
  if (answer.status !== 200) return { refusedAt: 'consent' as const, status: answer.status, body: answered };
  const resumePath = new URL(answered.redirectTo as string).pathname;
  const resume = await fetch(answered.redirectTo as string, {
    redirect: 'manual',
    headers: { cookie: jar.header(resumePath) },
  });
  const location = resume.headers.get('location');
  return { refusedAt: undefined, status: resume.status, location, consentPath, jar };
}

/** The authorization request of a public client (PKCE S256, the MCP endpoint as resource). */
export function authorizationUrl(
  baseUrl: string,
  client: { client_id: string },
  redirectUri: string,
  challenge: string | undefined,
  overrides: Record<string, string | undefined> = {},
): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: 'mcp',
    state: randomBytes(8).toString('hex'),
    resource: `${baseUrl}/api/v1/mcp`,
    code_challenge: challenge,
    code_challenge_method: challenge ? 'S256' : undefined,
    ...overrides,
  };
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return `${baseUrl}/oauth/auth?${query.toString()}`;
}
