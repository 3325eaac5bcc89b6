// Everything the benchmark needs, made through the real API as a user would: sign up (a user and
// a workspace where they are Admin), an API key from Settings, the deal type's Name field, and one
// webhook with a secret that receives record.created (so each deal written is one delivery).
import { randomBytes } from 'node:crypto';

export interface BenchWorkspace {
  apiKey: string;
  /** The signed-up Admin's session, for the web app's own routes (/app/api). */
  cookie: string;
  nameFieldId: string;
  webhookId: string;
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; apiKey?: string },
): Promise<{ status: number; body: unknown; setCookie: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      origin: baseUrl,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    setCookie: response.headers.get('set-cookie'),
  };
}

function expect(result: { status: number; body: unknown }, status: number, what: string) {
  if (result.status !== status)
    throw new Error(`${what} answered ${result.status}: ${JSON.stringify(result.body).slice(0, 500)}`);
  return result.body as Record<string, unknown>;
}

export async function prepareWorkspace(options: {
  baseUrl: string;
  /**
   * The JSON API of the mail catcher the stack mails to (`http://127.0.0.1:PORT/api/v1`): a
   * signed-up account can do nothing until it opens the link mailed to it. Not needed by a build
   * from before that proof (BENCH_PROJECT_ROOT), whose sign-up is usable at once.
   */
  mailApiUrl?: string;
  webhookUrl: string;
  secret: string;
  /** What the webhook subscribes to: record.created unless said (each deal written is one delivery). */
  events?: string[];
}): Promise<BenchWorkspace> {
  const { baseUrl } = options;
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const signUp = await call(baseUrl, 'POST', '/app/api/auth/sign-up', {
    body: { name: 'Bench', email, password: randomBytes(12).toString('hex'), workspaceName: 'Bench' },
  });
  expect(signUp, 201, 'sign-up');
  const cookie = signUp.setCookie?.split(';')[0];
  if (!cookie) throw new Error('sign-up set no session cookie');
  if ((signUp.body as { emailVerified?: boolean }).emailVerified === false) {
    if (!options.mailApiUrl) throw new Error('sign-up needs its mailed link, and no mail catcher was given');
    expect(
      await call(baseUrl, 'POST', '/app/api/auth/verify-email', {
        cookie,
        body: { token: await mailedToken(options.mailApiUrl, email, 'verify-email') },
      }),
      204,
      'opening the mailed link',
    );
  }

  const key = expect(
    await call(baseUrl, 'POST', '/app/api/api-keys', { cookie, body: { name: 'bench' } }),
    201,
    'creating an API key',
  );
  const apiKey = key.value as string;

  const model = expect(
    await call(baseUrl, 'POST', '/api/v1/model/read', { apiKey, body: { type: 'deal' } }),
    200,
    'reading the deal type',
  );
  const fields = (model.type as { fields: { id: string; name: string }[] }).fields;
  const nameFieldId = fields.find((field) => field.name === 'Name')?.id;
  if (!nameFieldId) throw new Error('the deal type has no Name field');

  const webhookId = await createWebhook(baseUrl, apiKey, {
    url: options.webhookUrl,
    events: options.events ?? ['record.created'],
    secret: options.secret,
  });
  return { apiKey, cookie, nameFieldId, webhookId };
}

/** One more webhook of the key's workspace, through the API; its id. */
export async function createWebhook(
  baseUrl: string,
  apiKey: string,
  webhook: { url: string; events: string[]; secret: string },
): Promise<string> {
  const created = expect(
    await call(baseUrl, 'POST', '/api/v1/webhooks', { apiKey, body: webhook }),
    201,
    'creating the webhook',
  );
  return created.id as string;
}

/**
 * The token of the newest link to `/app/<page>` mailed to `email`, read from the catcher's JSON API
 * as a person reads the message (waits up to 30 s for it to arrive).
 */
export async function mailedToken(mailApiUrl: string, email: string, page: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = (await (await fetch(`${mailApiUrl}/messages?limit=200`)).json()) as {
      messages: { ID: string; To: { Address: string }[] }[];
    };
    const message = list.messages.find((m) => m.To.some((to) => to.Address.toLowerCase() === email));
    if (message) {
      const { Text } = (await (await fetch(`${mailApiUrl}/message/${message.ID}`)).json()) as {
        Text: string;
      };
      const link = new RegExp(`/app/${page}\\?token=([A-Za-z0-9_%-]+)`).exec(Text);
      if (link) return decodeURIComponent(link[1]!);
    }
    if (Date.now() > deadline) throw new Error(`no /app/${page} link mailed to ${email} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
