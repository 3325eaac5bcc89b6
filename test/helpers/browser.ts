import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type Request,
} from 'playwright-core';
import { projectRoot } from '../../src/project-root';
import { configSchema } from '../../src/config';
import { startTestApp, type TestApp } from './test-app';
import { invitationLinkSentBy, invitationTokenSentBy, verificationLink } from './mailboxes';
import { TEST_PASSWORD, WebClient } from './web-client';
import { unexpectedStatus } from './server-errors';

/** Debian's Chromium, installed by scripts/setup-chromium.sh (run by `npm test`), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** A headless Chromium for the browser tests; fails with the fix when none is installed. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `No Chromium at ${executablePath}: run \`bash scripts/setup-chromium.sh\` as root ` +
        '(or `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium executable.',
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** The browser tests drive the built web app (dist/web), which `npm test` builds first. */
export function assertWebAppBuilt(): void {
  const index = join(projectRoot(), 'dist', 'web', 'index.html');
  if (!existsSync(index)) {
    throw new Error(
      `The web app is not built (${index} is missing): run \`npm run build:web\` (or \`npm run build\`).`,
    );
  }
}

/**
 * BROWSER_SHOTS=/some/dir saves a full-page screenshot of each step there (no-op otherwise);
 * `{ fullPage: false }` takes the viewport only (long pages).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const dir = process.env.BROWSER_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
}

export type BrowserPerson = { name: string; email: string; password: string; workspace?: string };

/** The browser tests' pages: desktop width, English dates and numbers. */
export const BROWSER_CONTEXT: BrowserContextOptions = {
  viewport: { width: 1280, height: 900 },
  locale: 'en-US',
};

/** The per-session request quota the service runs with by default (src/config.ts). */
const DEFAULT_SESSION_QUOTA = String(configSchema.shape.QUOTA_PER_SESSION.parse(undefined));

/** Starting the app (a fresh database, Temporal, maybe a worker) and Chromium takes a while. */
export const BROWSER_SETUP_TIMEOUT_MS = 180_000;

export type BrowserSessionOptions = {
  /** Config overrides for `startTestApp`. */
  config?: Record<string, string>;
  /** A real worker beside the app (deliveries), as `startTestApp`'s `{ worker: true }`. */
  worker?: boolean;
  /** The browser contexts' options (default BROWSER_CONTEXT), for `page` and `newPage()`. */
  context?: BrowserContextOptions;
  /** Signs this person up in `page` (a new workspace where they are Admin), skipping the onboarding. */
  signUp?: BrowserPerson;
};

export type BrowserSession = {
  app: TestApp;
  browser: Browser;
  /** The context of `page`. */
  context: BrowserContext;
  page: Page;
  /** A page in a new browser context with the same options: another person, with their own cookies. */
  newPage: () => Promise<Page>;
  /** Closes the browser, then the app; safe to call after a failed start or twice. */
  close: () => Promise<void>;
};

/**
 * The setup of a browser test file: the real app (`startTestApp`), a headless Chromium and one
 * page, optionally signed up (`useBrowserSession` runs it in a describe block's hooks). A failed
 * start closes whatever it had started.
 */
export async function startBrowserSession(options: BrowserSessionOptions = {}): Promise<BrowserSession> {
  assertWebAppBuilt();
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => errors.push(error));
    }
    if (errors.length > 0) throw errors[0];
  };
  try {
    // Sessions keep the default quota (issue 34, item 2): a page that asks for more than a person's
    // use is refused here, as it would be in production. API keys and workspaces stay unbounded.
    const app = await startTestApp(
      { QUOTA_PER_SESSION: DEFAULT_SESSION_QUOTA, ...options.config },
      { worker: options.worker },
    );
    cleanups.push(() => app.close());
    await assertServesWebApp(app.baseUrl);
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    const contextOptions = options.context ?? BROWSER_CONTEXT;
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    if (options.signUp) await signUpInBrowser(page, app.baseUrl, options.signUp);
    const newPage = async () => (await browser.newContext(contextOptions)).newPage();
    return { app, browser, context, page, newPage, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/**
 * `startBrowserSession` for a `describe` block: started in `beforeAll`, closed in `afterAll`. The
 * object it returns is filled in by that `beforeAll`, so read it in later hooks and in tests, e.g.
 * `beforeAll(() => { ({ app, page } = session); })`.
 */
export function useBrowserSession(options: BrowserSessionOptions = {}): BrowserSession {
  const session = {} as BrowserSession;
  beforeAll(async () => {
    Object.assign(session, await startBrowserSession(options));
  }, BROWSER_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await session.close?.();
  });
  return session;
}

/** A delivery goes through Temporal and a real HTTP POST: longer than a plain server answer. */
export const DELIVERY_TIMEOUT_MS = 30_000;

/** createApp serves the built web app (src/http/web-static.ts) for a page a browser asks for. */
async function assertServesWebApp(baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/sign-in`, { headers: { Accept: 'text/html' } });
  const body = await response.text();
  if (response.status !== 200 || !body.includes('<div id="root">')) {
    throw new Error(
      `GET /sign-in answered ${response.status} without the web app: createApp must mount ` +
        `webAppMiddleware({ root: dist/web }). Body: ${body.slice(0, 200)}`,
    );
  }
}

/** Signs up in the web app (a new workspace where the person is Admin) and skips the onboarding. */
export async function signUpInBrowser(page: Page, baseUrl: string, who: BrowserPerson): Promise<void> {
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByTestId('sign-up-name').fill(who.name);
  await page.getByTestId('sign-up-email').fill(who.email);
  await page.getByTestId('sign-up-password').fill(who.password);
  await page.getByTestId('sign-up-workspace').fill(who.workspace ?? `${who.name}'s workspace`);
  await page.getByTestId('sign-up-submit').click();
  await confirmAddressInBrowser(page, baseUrl, who.email);
  await page.getByTestId('onboarding-skip').click();
  await page.getByTestId('dashboard').waitFor();
}

/**
 * After sign-up, as a person does: the page says to check the inbox; the e-mailed link (read from
 * the app's real mail catcher) is opened in the same browser and Continue leads on (to the
 * onboarding for a new workspace's Admin).
 */
export async function confirmAddressInBrowser(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.getByTestId('check-inbox').waitFor();
  await page.goto(await verificationLink(baseUrl, email));
  await page.getByTestId('verify-email-continue').click();
}

/** Signs in through the sign-in page and waits for the Dashboard. */
export async function signInInBrowser(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByTestId('sign-in-email').fill(email);
  await page.getByTestId('sign-in-password').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('dashboard').waitFor();
}

/**
 * Invites `email` on the Members page (Invite member: the address and, if given, the role by its
 * label), waits for the pending invitation's row, and returns the link mailed to the address (read
 * from the app's real mail catcher), for the invitee to open.
 */
export async function inviteInBrowser(
  page: Page,
  baseUrl: string,
  who: { email: string; roleLabel?: string },
): Promise<string> {
  if (!page.url().endsWith('/settings/members')) await page.goto(`${baseUrl}/settings/members`);
  await page.getByTestId('members-table').waitFor();
  return invitationLinkSentBy(baseUrl, who.email, async () => {
    await page.getByTestId('invite-member').click();
    const dialog = page.getByTestId('invite-member-dialog');
    await dialog.getByTestId('invite-email').fill(who.email);
    if (who.roleLabel) await dialog.getByTestId('invite-role').selectOption({ label: who.roleLabel });
    await dialog.getByTestId('invite-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator(`[data-testid=invitation-row][data-email="${who.email.toLowerCase()}"]`).waitFor();
  });
}

/**
 * Opens an invitation link in `page` and accepts it: signed out, by creating the account with a
 * name and password; signed in (as the invited address), with Join. Waits for the Dashboard.
 */
export async function acceptInvitationInBrowser(
  page: Page,
  link: string,
  newAccount?: { name: string; password: string },
): Promise<void> {
  await page.goto(link);
  await page.getByTestId('invitation-summary').waitFor();
  if (newAccount) {
    await page.getByTestId('invitation-name').fill(newAccount.name);
    await page.getByTestId('invitation-password').fill(newAccount.password);
    await page.getByTestId('invitation-create').click();
  } else {
    await page.getByTestId('invitation-accept').click();
  }
  await page.getByTestId('dashboard').waitFor();
}

/**
 * Set-up by API rather than by the UI: the Admin signed in on `page` invites `email` with
 * `roleId`, and the person accepts the mailed link by creating the account (their `name`, and
 * TEST_PASSWORD). Returns what the test signs in with.
 */
export async function invitedMemberFromPage(
  page: Page,
  baseUrl: string,
  who: { email: string; roleId: string; name?: string },
): Promise<{ userId: string; email: string; password: string }> {
  const token = await invitationTokenSentBy(baseUrl, who.email, () =>
    appFetch(page, 'POST', '/app/api/invitations', { email: who.email, roleId: who.roleId }),
  );
  const session = await new WebClient(baseUrl).ok('POST', '/app/api/invitations/accept-new', {
    token,
    name: who.name ?? who.email.split('@')[0],
    password: TEST_PASSWORD,
  });
  return { userId: session.user.id as string, email: who.email, password: TEST_PASSWORD };
}

/** Adds a webhook on the Webhooks page (Add, its URL and events, Save) and waits for its row. */
export async function addWebhookInBrowser(page: Page, url: string, events: string[]): Promise<void> {
  await page.getByTestId('nav-webhooks').click();
  await page.getByTestId('webhook-add').click();
  const dialog = page.getByTestId('webhook-dialog');
  await dialog.getByTestId('webhook-url').fill(url);
  for (const event of events) {
    await dialog.locator(`[data-testid=webhook-event][data-event="${event}"]`).check();
  }
  await dialog.getByTestId('webhook-save').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(`[data-testid=webhook-row][data-url="${url}"]`).waitFor();
}

/**
 * Whether the page holds `text` anywhere: its HTML, its visible text or a form field's current
 * value (a value shown once must be gone from all three).
 */
export async function pageHolds(page: Page, text: string): Promise<boolean> {
  const html = await page.content();
  // Run in the page (strings: the test code itself is type-checked without the DOM library).
  const visible = (await page.evaluate('document.body.innerText')) as string;
  const fields = (await page.evaluate(
    "Array.from(document.querySelectorAll('input, textarea'), (field) => field.value)",
  )) as string[];
  return html.includes(text) || visible.includes(text) || fields.some((value) => value.includes(text));
}

/** The element with this test id that belongs to the named field (`data-field-name`). */
export function byField(scope: Page | Locator, testId: string, fieldName: string): Locator {
  return scope.locator(`[data-testid="${testId}"][data-field-name="${fieldName}"]`);
}

export { eventually } from './eventually';

/**
 * A call to the app's own JSON routes from inside the page, as the web app makes it: with the
 * page's session cookie, and the browser's Origin on writes. For setup steps a test does not
 * take through the UI; fails the test on anything but 2xx.
 */
export async function appFetch<T = any>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    },
    { method, path, body },
  );
  if (answer.status < 200 || answer.status > 299) {
    throw unexpectedStatus(page.url(), `${method} ${path}`, answer.status, answer.text);
  }
  return (answer.text ? JSON.parse(answer.text) : undefined) as T;
}

/** Today in the browser's time zone, `YYYY-MM-DD` (date inputs and the lists' date filters). */
export async function browserToday(page: Page, plusDays = 0): Promise<string> {
  return page.evaluate((days) => {
    const date = new Date();
    date.setDate(date.getDate() + days);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }, plusDays);
}

/**
 * Collects the webhook writes the page sends (any request but GET under /app/api/webhooks) while
 * `during` runs, so a test can say a step sent nothing. The listener is removed whatever happens.
 */
export async function webhookWritesDuring(page: Page, during: () => Promise<void>): Promise<string[]> {
  const writes: string[] = [];
  const onRequest = (request: Request) => {
    if (request.method() !== 'GET' && request.url().includes('/app/api/webhooks'))
      writes.push(`${request.method()} ${request.url()}`);
  };
  page.on('request', onRequest);
  try {
    await during();
  } finally {
    page.off('request', onRequest);
  }
  return writes;
}
