import type { Page } from 'playwright-core';
import { simulateProvider } from '../../src/messaging/simulator';
import {
  addWebhookInBrowser,
  appFetch,
  DELIVERY_TIMEOUT_MS,
  eventually,
  invitedMemberFromPage,
  pageHolds,
  screenshot,
  signInInBrowser,
  useBrowserSession,
} from '../helpers/browser';
import { Receiver } from '../helpers/receiver';
import type { TestApp } from '../helpers/test-app';

/**
 * Settings → Connected accounts in a real headless Chromium against the real API and a real
 * Temporal worker (docs/app-api.md, "Connected accounts"; docs/messaging.md): an Admin connects a
 * messaging account and sees its signing secret once; the provider simulator, signing with that
 * secret, sends a message that a webhook on loopback receives and the Deliveries page shows; a
 * Member does not get the page; the Admin disconnects the account. The steps build on each other,
 * in order. BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const member = { name: 'Bob Member', email: 'bob@example.com' };
const ACCOUNT = { provider: 'gmail', accountId: 'sales@example.com', displayName: 'Sales inbox' };
/** 32 random bytes, base64url. */
const SIGNING_SECRET = /^[A-Za-z0-9_-]{43}$/;

describe('web app: connected accounts in a browser', () => {
  const session = useBrowserSession({ worker: true, signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;
  let receiver: Receiver;
  let hookUrl = '';
  /** The connected account's id (the endpoint's and the simulator's), and its secret read from the dialog. */
  let accountId = '';
  let signingSecret = '';

  const row = (id: string) => page.locator(`[data-testid=connected-account-row][data-id="${id}"]`);
  const rows = () => page.getByTestId('connected-account-row');
  const connectDialog = () => page.getByTestId('connect-account-dialog');
  const secretDialog = () => page.getByTestId('connected-account-dialog');
  const inboundUrl = (id: string) => `${app.baseUrl}/api/v1/messaging/inbound/${id}`;

  async function openConnect(): Promise<void> {
    await page.getByTestId('connect-account').click();
    await connectDialog().waitFor();
  }

  beforeAll(() => {
    ({ app, page } = session);
  });

  beforeAll(async () => {
    receiver = await new Receiver().start();
    hookUrl = `${receiver.url}/hooks/messaging`;
  });

  afterAll(async () => {
    await receiver?.stop();
  });

  it('offers Connected accounts in an Admin’s Settings navigation; the page starts empty', async () => {
    await expect(page.getByTestId('nav-connected-accounts').isVisible()).resolves.toBe(true);
    await page.getByTestId('nav-connected-accounts').click();
    await page.waitForURL(`${app.baseUrl}/settings/connected-accounts`);
    await page.getByTestId('connected-accounts-empty').waitFor();
    await screenshot(page, '01-empty');
  });

  it('connects an account and shows its signing secret once, with its endpoint and the simulator command', async () => {
    await openConnect();
    // Common providers, then any other typed in.
    await expect(
      page
        .getByTestId('account-provider')
        .locator('option')
        .evaluateAll((options) => options.map((option) => option.getAttribute('value'))),
    ).resolves.toEqual([
      'gmail',
      'outlook',
      'whatsapp',
      'linkedin',
      'slack',
      'telegram',
      'google-calendar',
      '',
    ]);
    await page.getByTestId('account-provider').selectOption(ACCOUNT.provider);
    await page.getByTestId('account-id').fill(ACCOUNT.accountId);
    await page.getByTestId('account-display-name').fill(ACCOUNT.displayName);
    await screenshot(page, '02-connect');
    const created = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/app/api/connected-accounts'),
    );
    await page.getByTestId('connect-account-submit').click();
    expect((await created).postDataJSON()).toEqual(ACCOUNT);

    await secretDialog().waitFor();
    await connectDialog().waitFor({ state: 'detached' });
    signingSecret = (await secretDialog().getByTestId('signing-secret').textContent()) ?? '';
    expect(signingSecret).toMatch(SIGNING_SECRET);
    await expect(secretDialog().getByTestId('copy-signing-secret').isVisible()).resolves.toBe(true);
    const endpoint = (await secretDialog().getByTestId('connected-account-endpoint').textContent()) ?? '';
    const match = /^POST (\S+)\/api\/v1\/messaging\/inbound\/([0-9a-f-]{36})$/.exec(endpoint);
    expect(match?.[1]).toBe(app.baseUrl);
    accountId = match?.[2] ?? '';
    await expect(secretDialog().getByTestId('simulate-command').textContent()).resolves.toBe(
      `npm run cli -- messaging simulate --account ${accountId}`,
    );
    const explanation = (await secretDialog().textContent()) ?? '';
    expect(explanation).toContain('X-Provider-Signature');
    expect(explanation).toContain('HMAC-SHA256');
    expect(explanation).toContain('shown only once');
    await screenshot(page, '03-signing-secret-once');

    await secretDialog().getByTestId('connected-account-done').click();
    await secretDialog().waitFor({ state: 'detached' });
    const listed = row(accountId);
    await listed.waitFor();
    await expect(listed.getByTestId('account-cell-provider').textContent()).resolves.toBe('Gmail');
    await expect(listed.getAttribute('data-provider')).resolves.toBe(ACCOUNT.provider);
    await expect(listed.getByTestId('account-cell-account-id').textContent()).resolves.toBe(
      ACCOUNT.accountId,
    );
    await expect(listed.getByTestId('account-cell-display-name').textContent()).resolves.toBe(
      ACCOUNT.displayName,
    );
    await expect(listed.getByTestId('account-cell-endpoint').textContent()).resolves.toBe(
      inboundUrl(accountId),
    );
    const connectedAt = await listed.getByTestId('account-connected-at').getAttribute('datetime');
    expect(Math.abs(Date.now() - Date.parse(connectedAt ?? ''))).toBeLessThan(5 * 60 * 1000);
    await expect(
      page.locator('[data-testid=connected-accounts-table] th').allTextContents(),
    ).resolves.toEqual([
      'Provider',
      'Account id',
      'Display name',
      'Inbound endpoint',
      'Connected at',
      'Actions',
    ]);
    // Shown once: gone with the dialog, and never listed again.
    expect(await pageHolds(page, signingSecret)).toBe(false);
    const listing = page.waitForResponse((response) =>
      response.url().endsWith('/app/api/connected-accounts'),
    );
    await page.reload();
    const answer = await (await listing).text();
    await row(accountId).waitFor();
    expect(answer).not.toContain(signingSecret);
    expect(await pageHolds(page, signingSecret)).toBe(false);
    await screenshot(page, '04-listed');
  });

  it('shows the server’s refusal for an account connected already; another provider can be typed in', async () => {
    await openConnect();
    await page.getByTestId('account-provider').selectOption(ACCOUNT.provider);
    await page.getByTestId('account-id').fill(ACCOUNT.accountId);
    await page.getByTestId('account-display-name').fill('Sales inbox again');
    await page.getByTestId('connect-account-submit').click();
    const refusal = connectDialog().getByTestId('error-message');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toBe('This account is already connected.');
    await screenshot(page, '05-already-connected');

    await page.getByTestId('account-provider').selectOption('');
    await page.getByTestId('account-provider-other').fill('zoho-mail');
    await page.getByTestId('account-id').fill('support@example.com');
    await page.getByTestId('account-display-name').fill('Support');
    await screenshot(page, '06-other-provider');
    await page.getByTestId('connect-account-submit').click();
    await secretDialog().waitFor();
    await expect(secretDialog().getByTestId('signing-secret').textContent()).resolves.toMatch(SIGNING_SECRET);
    await secretDialog().getByTestId('dialog-close').click();
    await secretDialog().waitFor({ state: 'detached' });
    const other = page.locator('[data-testid=connected-account-row][data-provider="zoho-mail"]');
    await other.waitFor();
    await expect(other.getByTestId('account-cell-provider').textContent()).resolves.toBe('zoho-mail');
    await expect(rows().count()).resolves.toBe(2);
  });

  it('a message from the simulated provider, signed with the secret from the dialog, is delivered to a webhook and shown on the Deliveries page', async () => {
    await addWebhookInBrowser(page, hookUrl, ['messaging.message.received']);

    // A provider that does not know the secret is refused.
    const forged = await simulateProvider({
      baseUrl: app.baseUrl,
      accountId,
      signingSecret: 'not-the-secret',
      types: ['message.received'],
    });
    expect(forged.map((result) => result.status)).toEqual([401]);

    const sent = await simulateProvider({
      baseUrl: app.baseUrl,
      accountId,
      signingSecret,
      types: ['message.received'],
    });
    expect(sent).toEqual([
      { type: 'message.received', status: 202, answer: expect.objectContaining({ stored: true }) },
    ]);

    await eventually(
      async () => receiver.received.some((request) => request.path === '/hooks/messaging'),
      'the webhook received the message',
      DELIVERY_TIMEOUT_MS,
    );
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.json).toMatchObject({
      event: 'messaging.message.received',
      data: { connectedAccountId: accountId, provider: ACCOUNT.provider },
    });

    await page.getByTestId('nav-deliveries').click();
    await page.getByTestId('deliveries-page').waitFor();
    const delivery = page.locator('[data-testid=delivery-row]', { hasText: 'messaging.message.received' });
    await eventually(
      async () =>
        (await delivery.count()) === 1 && (await delivery.getAttribute('data-status')) === 'delivered',
      'the delivery is listed as Delivered',
      DELIVERY_TIMEOUT_MS,
    );
    await expect(delivery.getByTestId('delivery-cell-event').textContent()).resolves.toBe(
      'messaging.message.received',
    );
    await expect(delivery.getByTestId('delivery-status').textContent()).resolves.toBe('Delivered');
    await expect(delivery.getByTestId('delivery-open').textContent()).resolves.toBe(hookUrl);
    await screenshot(page, '07-deliveries');

    await delivery.getByTestId('delivery-open').click();
    const details = page.getByTestId('event-details');
    await details.getByTestId('delivery-payload').waitFor();
    await expect(details.getByTestId('delivery-status').textContent()).resolves.toBe('Delivered');
    await expect(details.getByTestId('delivery-event').textContent()).resolves.toBe(
      'messaging.message.received',
    );
    const payload = JSON.parse((await details.getByTestId('delivery-payload').textContent()) ?? '{}');
    expect(payload).toMatchObject({
      connectedAccountId: accountId,
      provider: ACCOUNT.provider,
      entityId: expect.any(String),
    });
    await screenshot(page, '08-event-details');
    await details.getByTestId('delivery-close').click();
    await details.waitFor({ state: 'detached' });
  });

  it('a Member does not see Connected accounts, and its address leads to the Dashboard', async () => {
    const roles = await appFetch(page, 'GET', '/app/api/roles');
    const memberRole = roles.data.find((role: { builtin: string | null }) => role.builtin === 'member');
    const added = await invitedMemberFromPage(page, app.baseUrl, { ...member, roleId: memberRole.id });

    const memberPage = await session.newPage();
    try {
      await signInInBrowser(memberPage, app.baseUrl, member.email, added.password);
      await expect(memberPage.getByTestId('dashboard-role').textContent()).resolves.toBe('Member');
      await expect(memberPage.getByTestId('nav-connected-accounts').count()).resolves.toBe(0);
      await expect(
        memberPage.getByTestId('dashboard-links').getByText('Connected accounts').count(),
      ).resolves.toBe(0);
      await memberPage.goto(`${app.baseUrl}/settings/connected-accounts`);
      await memberPage.waitForURL(`${app.baseUrl}/`);
      await memberPage.getByTestId('dashboard').waitFor();
      await expect(memberPage.getByTestId('connected-accounts-page').count()).resolves.toBe(0);
      await screenshot(memberPage, '09-member-dashboard');
      // The server refuses the list too.
      const status = await memberPage.evaluate(
        async () => (await fetch('/app/api/connected-accounts')).status,
      );
      expect(status).toBe(403);
    } finally {
      await memberPage.context().close();
    }
  });

  it('disconnects the accounts after a confirmation; the provider’s requests are then refused', async () => {
    await page.getByTestId('nav-connected-accounts').click();
    await row(accountId).waitFor();
    await row(accountId).getByTestId('account-disconnect').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    await expect(confirm.textContent()).resolves.toContain(ACCOUNT.displayName);
    await screenshot(page, '10-confirm-disconnect');
    // Cancel first: nothing disconnected.
    await page.getByTestId('confirm-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    await expect(rows().count()).resolves.toBe(2);

    await row(accountId).getByTestId('account-disconnect').click();
    await page.getByTestId('confirm-ok').click();
    await confirm.waitFor({ state: 'detached' });
    await row(accountId).waitFor({ state: 'detached' });
    await expect(page.getByTestId('connected-accounts-notice').textContent()).resolves.toContain(
      `${ACCOUNT.displayName} disconnected`,
    );
    const refused = await simulateProvider({
      baseUrl: app.baseUrl,
      accountId,
      signingSecret,
      types: ['message.received'],
    });
    expect(refused.map((result) => result.status)).toEqual([401]);
    await screenshot(page, '11-disconnected');

    await rows().first().getByTestId('account-disconnect').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('connected-accounts-empty').waitFor();
    await page.reload();
    await page.getByTestId('connected-accounts-empty').waitFor();
  });
});
