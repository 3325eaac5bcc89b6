import { Agent, fetch as fetchFrom } from 'undici';
import { invitationTokenSentBy, verificationToken } from './mailboxes';
import { unexpectedStatus } from './server-errors';

/** The password of every person `WebClient.signUp` creates: one the password rule accepts. */
export const TEST_PASSWORD = 'plum kettle orbit 42';

let loopbackAddresses = 0;

/**
 * A loopback address of its own (Linux routes all of 127.0.0.0/8 to this machine), to send from:
 * sign-ups and failed sign-ins are limited per client address, and separate people come from
 * separate addresses. (test/helpers/oauth.ts hands out 127.1.x.y; these are 127.2.x.y.)
 */
export function freshClientAddress(): string {
  loopbackAddresses += 1;
  return `127.2.${Math.floor(loopbackAddresses / 250)}.${(loopbackAddresses % 250) + 1}`;
}

/**
 * A signed-in browser, minus the browser: keeps its cookies (the session's, and the device cookie a
 * sign-in sets) and sends Origin on writes.
 */
export class WebClient {
  private readonly cookies = new Map<string, string>();
  private readonly dispatcher?: Agent;

  /** `from`: the loopback address to send from (default: the system's, 127.0.0.1). */
  constructor(
    private readonly baseUrl: string,
    options: { from?: string } = {},
  ) {
    if (options.from) this.dispatcher = new Agent({ localAddress: options.from });
  }

  /** The `crm_session` cookie's value, for a flow the test drives without this client. */
  get sessionCookie(): string {
    return this.cookies.get('crm_session') ?? '';
  }

  /** A cookie's value as this browser keeps it, or undefined. */
  cookieNamed(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The Cookie header this browser sends (some tests replay it by hand). */
  private get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Keeps a cookie as if the service had set it (a copied or forged one); undefined forgets it. */
  setCookie(name: string, value: string | undefined): void {
    if (value === undefined) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const init = {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        origin: this.baseUrl,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    const url = `${this.baseUrl}${path}`;
    const response = this.dispatcher
      ? await fetchFrom(url, { ...init, dispatcher: this.dispatcher })
      : await fetch(url, init);
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      // A cleared cookie comes back empty (and expired): the browser forgets it.
      this.setCookie(name, pair.slice(pair.indexOf('=') + 1) || undefined);
    }
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** Like request, but fails the test on anything but `expected`. */
  async ok<T = any>(method: string, path: string, body?: unknown, expected = [200, 201, 204]): Promise<T> {
    const result = await this.request<T>(method, path, body);
    if (!expected.includes(result.status)) {
      throw unexpectedStatus(this.baseUrl, `${method} ${path}`, result.status, JSON.stringify(result.body));
    }
    return result.body;
  }

  /**
   * A new person, with TEST_PASSWORD, signing up from an address of their own (freshClientAddress),
   * who then opens the link the service e-mailed them (read from the app's real mail catcher), as
   * a person must before the account can do anything. `session` is the session after that.
   */
  static async signUp(baseUrl: string, who: { email: string; name?: string; workspaceName?: string }) {
    const { client } = await WebClient.signUpUnverified(baseUrl, who);
    await client.ok('POST', '/app/api/auth/verify-email', {
      token: await verificationToken(baseUrl, who.email),
    });
    const session = await client.ok('GET', '/app/api/session');
    return { client, session };
  }

  /** Sign-up alone: the account exists, signed in, but its address is not proven yet. */
  static async signUpUnverified(
    baseUrl: string,
    who: { email: string; name?: string; workspaceName?: string; password?: string },
  ) {
    const client = new WebClient(baseUrl, { from: freshClientAddress() });
    const session = await client.ok('POST', '/app/api/auth/sign-up', {
      name: who.name ?? who.email.split('@')[0],
      email: who.email,
      password: who.password ?? TEST_PASSWORD,
      workspaceName: who.workspaceName ?? `${who.email} workspace`,
    });
    return { client, session };
  }

  static async signIn(baseUrl: string, email: string, password: string) {
    const client = new WebClient(baseUrl);
    const session = await client.ok('POST', '/app/api/auth/sign-in', { email, password });
    return { client, session };
  }
}

/** A REST call with an API key. */
export async function rest(baseUrl: string, key: string | undefined, path = '/api/v1/me') {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: key === undefined ? {} : { 'x-api-key': key },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** A call of `/api/v1<path>` with an API key and a JSON body: its status and parsed body. */
export async function keyCall(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** What `addMemberByInvitation` hands back: the new member, signed in. */
export interface InvitedMember {
  userId: string;
  email: string;
  /** The password the member signs in with. */
  password: string;
  /** The member's own browser, signed in, its session on the workspace they joined. */
  client: WebClient;
  /** The session the accept answered (`Session`: user, workspace, role, permissions…). */
  session: any;
}

/**
 * Adds a person to the Admin's workspace the only way the web app has (issue 34): the Admin invites
 * the address with `roleId`, the link is read from the app's real mail catcher, and the person
 * accepts it. A new address accepts by creating an account (`accept-new`, with `name`, default the
 * address's local part, and `password`, default TEST_PASSWORD); an existing verified account passes
 * `signedIn`, its own signed-in client (with the account's `password`, if not TEST_PASSWORD), and
 * accepts while signed in.
 */
export async function addMemberByInvitation(
  baseUrl: string,
  admin: WebClient,
  who: { email: string; roleId: string; name?: string; password?: string; signedIn?: WebClient },
): Promise<InvitedMember> {
  const password = who.password ?? TEST_PASSWORD;
  const token = await invitationTokenSentBy(baseUrl, who.email, () =>
    admin.ok('POST', '/app/api/invitations', { email: who.email, roleId: who.roleId }, [201]),
  );
  const client = who.signedIn ?? new WebClient(baseUrl);
  const session = who.signedIn
    ? await client.ok('POST', '/app/api/invitations/accept', { token }, [200])
    : await client.ok(
        'POST',
        '/app/api/invitations/accept-new',
        { token, name: who.name ?? who.email.split('@')[0], password },
        [201],
      );
  return {
    userId: session.user.id as string,
    email: session.user.email as string,
    password,
    client,
    session,
  };
}

/**
 * A member invited by an Admin with a role of their own (Read access All and Create on API &
 * Webhooks, so they can make a key, plus `role`), who accepted, signed in, with an API key.
 */
export async function memberWithRole(
  admin: WebClient,
  baseUrl: string,
  email: string,
  role: Record<string, unknown>,
): Promise<{ client: WebClient; key: string; userId: string }> {
  const created = await admin.ok('POST', '/app/api/roles', {
    name: email,
    apiRead: 'all',
    apiCreate: true,
    ...role,
  });
  const { client, userId } = await addMemberByInvitation(baseUrl, admin, { email, roleId: created.id });
  const key = (await client.ok('POST', '/app/api/api-keys', { name: 'k' })).value as string;
  return { client, key, userId };
}
