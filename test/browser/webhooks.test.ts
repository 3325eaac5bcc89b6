import type { Page, Request } from 'playwright-core';
import {
  acceptInvitationInBrowser,
  appFetch,
  browserToday,
  eventually,
  invitedMemberFromPage,
  inviteInBrowser,
  screenshot,
  signInInBrowser,
  useBrowserSession,
  webhookWritesDuring,
} from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';
import { Webhook } from 'standardwebhooks';
import { standardWebhookHeaders } from '../../src/webhooks/signing/standard-webhooks';

/**
 * The Webhooks page in a real headless Chromium against the real API and a real worker
 * (docs/app-api.md, "Webhooks and deliveries"; docs/api.md#rest-endpoints, README.md#using-it,
 * docs/api.md#permissions): an Admin adds, edits, searches,
 * filters and deletes a webhook; a Viewer reads it with masked secret and header values. The
 * steps build on each other, in order. BROWSER_SHOTS=/some/dir saves a screenshot of each step.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const viewer = { name: 'Vera Viewer', email: 'vera@example.com', password: 'violet ink orchard 5' };
const HOOK_URL = 'https://hooks.example.com/crm/deals';
const OTHER_URL = 'https://other.example.org/hook';
const SECRET = 'a-long-random-signing-secret';

describe('web app: webhooks in a browser', () => {
  const session = useBrowserSession({ worker: true, signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;
  let viewerPage: Page;

  const dialog = (on: Page = page) => on.getByTestId('webhook-dialog');
  const row = (url: string, on: Page = page) => on.locator(`[data-testid=webhook-row][data-url="${url}"]`);
  const rows = (on: Page = page) => on.getByTestId('webhook-row');
  const event = (name: string, on: Page = page) =>
    dialog(on).locator(`[data-testid=webhook-event][data-event="${name}"]`);

  /** The body of the next write of this method to the webhook routes, once sent. */
  function nextWrite(method: string): Promise<Request> {
    return page.waitForRequest(
      (request) =>
        request.method() === method && /\/app\/api\/webhooks(\/|$)/.test(new URL(request.url()).pathname),
    );
  }

  async function openRow(url: string, on: Page = page): Promise<void> {
    await row(url, on).getByTestId('webhook-open').click();
    await dialog(on).waitFor();
    await dialog(on).locator('form').waitFor();
  }

  async function closeDialog(on: Page = page): Promise<void> {
    await dialog(on).getByTestId('dialog-close').click();
    await dialog(on).waitFor({ state: 'detached' });
  }

  async function listed(on: Page = page): Promise<string[]> {
    await on.locator('[data-testid=webhooks-table], [data-testid=webhooks-empty]').first().waitFor();
    // The answer to the latest query is shown (not dimmed).
    await eventually(
      async () => (await on.locator('[aria-busy=true]').count()) === 0,
      'the list shows the latest answer',
    );
    return rows(on).evaluateAll((items) => items.map((item) => item.getAttribute('data-url') ?? ''));
  }

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('offers Webhooks in the navigation; the page starts empty', async () => {
    await page.getByTestId('nav-webhooks').click();
    await page.waitForURL(/\/webhooks$/);
    await page.getByTestId('webhooks-empty').waitFor();
    await expect(page.getByTestId('webhook-add').isVisible()).resolves.toBe(true);
    await screenshot(page, '01-webhooks-empty');
  });

  it('adds a webhook with a secret, two headers and a record type; it is listed', async () => {
    await page.getByTestId('webhook-add').click();
    await dialog().waitFor();
    // The catalog's 16 events, grouped Record (5) and Messaging (11), and the 3 operational ones
    // (their own subscription, operationalEvents).
    await expect(dialog().getByTestId('webhook-event').count()).resolves.toBe(19);
    await expect(dialog().locator('[data-group=Record] [data-testid=webhook-event]').count()).resolves.toBe(
      5,
    );
    await expect(
      dialog().locator('[data-group=Messaging] [data-testid=webhook-event]').count(),
    ).resolves.toBe(11);
    await expect(
      dialog().locator('[data-group=Operational] [data-testid=webhook-event]').count(),
    ).resolves.toBe(3);

    await dialog().getByTestId('webhook-url').fill(HOOK_URL);
    await dialog().getByTestId('webhook-description').fill('Deals to billing');
    await event('record.created').check();
    await event('record.updated').check();
    await dialog().getByTestId('webhook-secret').fill(SECRET);
    // A line without a colon is ignored.
    await dialog()
      .getByTestId('webhook-headers')
      .fill('X-Billing-Token: token-for-the-receiver\nnot a header\nX-Tenant: acme');
    await expect(dialog().getByTestId('webhook-header-count').textContent()).resolves.toBe('2 headers.');
    await dialog().getByTestId('webhook-schema-revision').waitFor();
    await dialog().getByTestId('webhook-record-type').selectOption({ label: 'Deals' });
    await screenshot(page, '02-add-webhook');

    const created = nextWrite('POST');
    await dialog().getByTestId('webhook-save').click();
    const body = (await created).postDataJSON() as Record<string, unknown>;
    const model = await appFetch(page, 'POST', '/app/api/model/discover', {});
    const deals = model.types.find((type: { builtin: string }) => type.builtin === 'deal');
    expect(body).toEqual({
      url: HOOK_URL,
      description: 'Deals to billing',
      events: ['record.created', 'record.updated'],
      enabled: true,
      secret: SECRET,
      // On by default for a new webhook (issue 37, item 4).
      standardWebhooks: true,
      headers: { 'X-Billing-Token': 'token-for-the-receiver', 'X-Tenant': 'acme' },
      recordTrigger: { query: { typeId: deals.id } },
      expectedSchemaRevision: model.schemaRevision,
    });
    await dialog().waitFor({ state: 'detached' });
    await row(HOOK_URL).waitFor();
    await expect(page.getByTestId('webhooks-notice').textContent()).resolves.toContain('added');

    const cells = row(HOOK_URL);
    await expect(cells.getByTestId('webhook-cell-description').textContent()).resolves.toBe(
      'Deals to billing',
    );
    await expect(cells.getByTestId('webhook-event-tag').allTextContents()).resolves.toEqual([
      'record.created',
      'record.updated',
    ]);
    await expect(cells.getByTestId('webhook-status').textContent()).resolves.toBe('Enabled');
    await expect(cells.getByTestId('webhook-health-last').textContent()).resolves.toBe('No deliveries yet');
    await cells.getByTestId('webhook-created-at').waitFor();
    await cells.getByTestId('webhook-updated-at').waitFor();
    await expect(page.locator('.webhooks-table th').allTextContents()).resolves.toEqual([
      'URL',
      'Description',
      'Events',
      'Status',
      'Created at',
      'Updated at',
      'Actions',
    ]);
    await screenshot(page, '03-webhooks-table');
  });

  it('opens the row with the saved secret and header values, and saves only the changed description', async () => {
    await openRow(HOOK_URL);
    // Saved values are masked until revealed: a password field and header names only.
    await expect(dialog().getByTestId('webhook-secret').getAttribute('type')).resolves.toBe('password');
    await expect(dialog().getByTestId('webhook-secret').inputValue()).resolves.toBe(SECRET);
    await expect(dialog().getByTestId('webhook-headers').inputValue()).resolves.toBe(
      'X-Billing-Token: ********\nX-Tenant: ********',
    );
    await expect(dialog().textContent()).resolves.not.toContain('token-for-the-receiver');
    await dialog().getByTestId('webhook-reveal').click();
    await expect(dialog().getByTestId('webhook-secret').getAttribute('type')).resolves.toBe('text');
    await expect(dialog().getByTestId('webhook-headers').inputValue()).resolves.toBe(
      'X-Billing-Token: token-for-the-receiver\nX-Tenant: acme',
    );
    await expect(event('record.created').isChecked()).resolves.toBe(true);
    await expect(event('record.deleted').isChecked()).resolves.toBe(false);
    await expect(
      dialog().getByTestId('webhook-record-type').locator('option:checked').textContent(),
    ).resolves.toBe('Deals');
    await dialog().getByTestId('webhook-description').fill('New and changed deals to billing');
    await screenshot(page, '04-edit-webhook');

    const updated = nextWrite('PATCH');
    await dialog().getByTestId('webhook-save').click();
    await expect((await updated).postDataJSON()).toEqual({ description: 'New and changed deals to billing' });
    await dialog().waitFor({ state: 'detached' });
    await eventually(
      async () =>
        (await row(HOOK_URL).getByTestId('webhook-cell-description').textContent()) ===
        'New and changed deals to billing',
      'the new description is listed',
    );
  });

  it('Generate fills a strong random secret, shown for copying; the receiver-side value matches what is saved', async () => {
    await page.getByTestId('webhook-add').click();
    await dialog().getByTestId('webhook-secret-generate').click();
    const first = await dialog().getByTestId('webhook-secret').inputValue();
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(dialog().getByTestId('webhook-secret').getAttribute('type')).resolves.toBe('text');
    await dialog().getByTestId('webhook-secret-copy').waitFor();
    await dialog().getByTestId('webhook-secret-generate').click();
    const second = await dialog().getByTestId('webhook-secret').inputValue();
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(second).not.toBe(first);
    // Standard Webhooks is on for a new webhook, and the libraries take the generated secret as it is.
    await expect(dialog().getByTestId('webhook-standard-webhooks').isChecked()).resolves.toBe(true);
    await expect(dialog().getByTestId('webhook-standard-secret').textContent()).resolves.toBe(second);

    await dialog().getByTestId('webhook-url').fill('https://generated.example.com/hook');
    await event('messaging.chat.updated').check();
    const created = nextWrite('POST');
    await dialog().getByTestId('webhook-save').click();
    expect((await created).postDataJSON()).toMatchObject({ secret: second });
    await dialog().waitFor({ state: 'detached' });
    const listed = await appFetch(page, 'GET', '/app/api/webhooks');
    const saved = listed.data.find((w: { url: string }) => w.url === 'https://generated.example.com/hook');
    const secrets = await appFetch(page, 'GET', `/app/api/webhooks/${saved.id}/secrets`);
    expect(secrets.secret).toBe(second);
    // The published npm library, given the secret exactly as the dialog showed it, verifies what the
    // service signs with the saved one (real deliveries: test/receivers/standard-webhooks.test.ts).
    const message = { id: 'evt_generated', timestamp: Math.floor(Date.now() / 1000), body: '{"a":1}' };
    expect(
      new Webhook(second).verify(message.body, standardWebhookHeaders(message, [secrets.secret])),
    ).toEqual({
      a: 1,
    });
    await appFetch(page, 'DELETE', `/app/api/webhooks/${saved.id}`);
  });

  it('refuses an emptied Secret and an emptied Body template once set, without sending anything', async () => {
    // Set a body template first.
    await openRow(HOOK_URL);
    await dialog()
      .getByTestId('webhook-body-template')
      .fill('{ "text": "{{event}} on {{data.record.ref.recordId}}" }');
    const saved = nextWrite('PATCH');
    await dialog().getByTestId('webhook-save').click();
    await expect((await saved).postDataJSON()).toEqual({
      bodyTemplate: '{ "text": "{{event}} on {{data.record.ref.recordId}}" }',
    });
    await dialog().waitFor({ state: 'detached' });

    const writes = await webhookWritesDuring(page, async () => {
      await openRow(HOOK_URL);
      await dialog().getByTestId('webhook-secret').fill('');
      await dialog().getByTestId('webhook-save').click();
      const message = dialog().getByTestId('error-message');
      await message.waitFor();
      await expect(message.textContent()).resolves.toContain('"secret": null');
      await expect(message.textContent()).resolves.toContain('delete the webhook and create it again');
      await screenshot(page, '05-emptied-secret-refused');

      await dialog().getByTestId('webhook-secret').fill(SECRET);
      await dialog().getByTestId('webhook-body-template').fill('  ');
      await dialog().getByTestId('webhook-save').click();
      await message.waitFor();
      await expect(message.textContent()).resolves.toContain('"bodyTemplate": null');
      // The dialog stays open; nothing changed on the server. Closing it asks to discard the edits.
      await dialog().getByTestId('dialog-close').click();
      await page.getByTestId('confirm-ok').click();
      await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
      await dialog().waitFor({ state: 'detached' });
    });
    expect(writes).toEqual([]);
    const stored = await appFetch(page, 'GET', '/app/api/webhooks');
    expect(stored.data[0]).toMatchObject({
      url: HOOK_URL,
      hasSecret: true,
      bodyTemplate: expect.any(String),
    });
  });

  it('asks before closing a dialog with unsaved changes; without changes it closes at once', async () => {
    const writes = await webhookWritesDuring(page, async () => {
      await openRow(HOOK_URL);
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      await expect(page.getByTestId('confirm-dialog').count()).resolves.toBe(0);

      await openRow(HOOK_URL);
      const before = await dialog().getByTestId('webhook-description').inputValue();
      await dialog().getByTestId('webhook-description').fill(`${before} (unsaved)`);
      await page.keyboard.press('Escape');
      await page.getByTestId('confirm-dialog').waitFor();
      await expect(page.getByTestId('confirm-dialog').textContent()).resolves.toContain('not saved');
      await page.getByTestId('confirm-cancel').click();
      await expect(dialog().getByTestId('webhook-description').inputValue()).resolves.toBe(
        `${before} (unsaved)`,
      );

      // Cancel asks too; Discard closes without saving.
      await dialog().locator('.dialog-actions button', { hasText: 'Cancel' }).click();
      await page.getByTestId('confirm-ok').click();
      await dialog().waitFor({ state: 'detached' });
      await expect(row(HOOK_URL).getByTestId('webhook-cell-description').textContent()).resolves.toBe(before);
    });
    expect(writes).toEqual([]);
  });

  it('searches by URL and filters by creation date', async () => {
    await appFetch(page, 'POST', '/app/api/webhooks', {
      url: OTHER_URL,
      events: ['messaging.email.received'],
    });
    await page.reload();
    await row(OTHER_URL).waitFor();
    await expect(listed()).resolves.toEqual([OTHER_URL, HOOK_URL]);

    await page.getByTestId('webhooks-search').fill('hooks.example');
    await eventually(
      async () => (await listed()).join() === HOOK_URL,
      'only the matching HOOK_URL is listed',
    );
    await page.getByTestId('webhooks-search').fill('nowhere.example');
    await page.getByTestId('webhooks-empty').waitFor();
    await page.getByTestId('webhooks-search').fill('');
    await eventually(async () => (await listed()).length === 2, 'both are listed again');

    const today = await browserToday(page);
    const tomorrow = await browserToday(page, 1);
    const nextWeek = await browserToday(page, 7);
    // A range that excludes today…
    await page.getByTestId('webhooks-created-from').fill(tomorrow);
    await page.getByTestId('webhooks-created-to').fill(nextWeek);
    await page.getByTestId('webhooks-empty').waitFor();
    await screenshot(page, '06-filter-excludes');
    // …and one that includes it.
    await page.getByTestId('webhooks-created-from').fill(today);
    await page.getByTestId('webhooks-created-to').fill(today);
    await eventually(async () => (await listed()).length === 2, 'today’s webhooks are listed');
    await page.getByTestId('webhooks-updated-from').fill(tomorrow);
    await page.getByTestId('webhooks-empty').waitFor();
    await page.getByTestId('webhooks-clear-filters').click();
    await eventually(async () => (await listed()).length === 2, 'the filters are cleared');
    await screenshot(page, '07-filter-includes');
  });

  it('a Viewer (Read access All, no boxes) reads the webhook with masked values, without Add, Save or Delete', async () => {
    await page.getByTestId('nav-members').click();
    const link = await inviteInBrowser(page, app.baseUrl, { email: viewer.email, roleLabel: 'Viewer' });

    viewerPage = await session.newPage();
    const secretsCalls: string[] = [];
    viewerPage.on('request', (request) => {
      if (request.url().includes('/secrets')) secretsCalls.push(request.url());
    });
    await acceptInvitationInBrowser(viewerPage, link, viewer);
    await viewerPage.getByTestId('nav-webhooks').click();
    await row(HOOK_URL, viewerPage).waitFor();
    await expect(viewerPage.getByTestId('webhook-add').count()).resolves.toBe(0);

    await openRow(HOOK_URL, viewerPage);
    const view = dialog(viewerPage);
    await view.getByTestId('webhook-read-only').waitFor();
    await expect(view.getByTestId('webhook-secret').inputValue()).resolves.toBe('********');
    await expect(view.getByTestId('webhook-headers').inputValue()).resolves.toBe(
      'X-Billing-Token: ********\nX-Tenant: ********',
    );
    await expect(view.getByTestId('webhook-description').inputValue()).resolves.toBe(
      'New and changed deals to billing',
    );
    await expect(view.getByTestId('webhook-url').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(event('record.created', viewerPage).isDisabled()).resolves.toBe(true);
    await expect(view.getByTestId('webhook-save').count()).resolves.toBe(0);
    await expect(view.getByTestId('webhook-delete').count()).resolves.toBe(0);
    await expect(view.textContent()).resolves.not.toContain('token-for-the-receiver');
    await expect(view.textContent()).resolves.not.toContain(SECRET);
    await screenshot(viewerPage, '08-viewer-read-only');
    expect(secretsCalls).toEqual([]);
    // The server refuses the values too.
    const refused = await viewerPage.evaluate(
      async (id) => (await fetch(`/app/api/webhooks/${id}/secrets`)).status,
      (await row(HOOK_URL, viewerPage).getAttribute('data-webhook-id'))!,
    );
    expect(refused).toBe(403);
    await view.getByTestId('webhook-close').click();
    await view.waitFor({ state: 'detached' });
    // Without Create there is no "Send test event" or "Resend failed since…" in the row menu.
    await row(HOOK_URL, viewerPage).getByTestId('webhook-menu').click();
    await viewerPage.getByTestId('webhook-show-deliveries').waitFor();
    await expect(viewerPage.getByTestId('webhook-send-test').count()).resolves.toBe(0);
    await expect(viewerPage.getByTestId('webhook-resend-failed').count()).resolves.toBe(0);
    await viewerPage.keyboard.press('Escape');
  });

  it('a role with Read access None does not see Webhooks; opening the page leads to the Dashboard', async () => {
    const role = await appFetch(page, 'POST', '/app/api/roles', { name: 'No API' });
    const members = await appFetch(page, 'GET', '/app/api/members');
    const vera = members.data.find((member: { email: string }) => member.email === viewer.email);
    await appFetch(page, 'PATCH', `/app/api/members/${vera.userId}`, { roleId: role.id });

    await viewerPage.goto(`${app.baseUrl}/webhooks`);
    await viewerPage.getByTestId('dashboard').waitFor();
    await viewerPage.waitForURL(`${app.baseUrl}/`);
    await expect(viewerPage.getByTestId('nav-webhooks').count()).resolves.toBe(0);
    await expect(viewerPage.getByTestId('nav-deliveries').count()).resolves.toBe(0);
    await viewerPage.goto(`${app.baseUrl}/deliveries`);
    await viewerPage.getByTestId('dashboard').waitFor();
    await viewerPage.context().close();
  });

  it('a member with Edit whose role restricts Amount sees the Admin’s webhook fixed but its description (issue 10, hole 1)', async () => {
    const deal = (await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' })).type;
    const amount = deal.fields.find((field: { name: string }) => field.name === 'Amount').id;
    const role = await appFetch(page, 'POST', '/app/api/roles', {
      name: 'Sales without Amount',
      apiRead: 'all',
      apiCreate: true,
      apiEdit: true,
      restrictedFieldIds: [amount],
    });
    const added = await invitedMemberFromPage(page, app.baseUrl, {
      email: 'sam@example.com',
      name: 'Sam Sales',
      roleId: role.id,
    });
    const editorPage = await session.newPage();
    await signInInBrowser(editorPage, app.baseUrl, 'sam@example.com', added.password);
    await editorPage.getByTestId('nav-webhooks').click();
    await openRow(HOOK_URL, editorPage);
    const view = dialog(editorPage);
    await expect(view.getByTestId('webhook-owned-by-another').textContent()).resolves.toBe(
      'This webhook sends records as Ada Admin can read them; only its owner or an administrator can change where or how it sends.',
    );
    await expect(view.getByTestId('webhook-url').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(view.getByTestId('webhook-secret').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(view.getByTestId('webhook-headers').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(view.getByTestId('webhook-body-template').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(event('record.created', editorPage).isDisabled()).resolves.toBe(true);
    await expect(view.getByTestId('webhook-enabled').isDisabled()).resolves.toBe(true);
    await expect(view.getByTestId('webhook-standard-webhooks').isDisabled()).resolves.toBe(true);
    await expect(view.getByTestId('webhook-secret-rotate').count()).resolves.toBe(0);
    await expect(view.getByTestId('webhook-record-type').isDisabled()).resolves.toBe(true);
    await screenshot(editorPage, '09a-editor-owned-by-another');

    // The description stays open to Edit; Save sends only it.
    await view.getByTestId('webhook-description').fill('Deals to billing (Sam)');
    const saved = editorPage.waitForRequest((request) => request.method() === 'PATCH');
    await view.getByTestId('webhook-save').click();
    expect((await saved).postDataJSON()).toEqual({ description: 'Deals to billing (Sam)' });
    await view.waitFor({ state: 'detached' });

    // The server refuses a URL change from this member whatever the page shows.
    const id = (await row(HOOK_URL, editorPage).getAttribute('data-webhook-id'))!;
    const moved: { status: number; body: any } = await editorPage.evaluate(async (webhookId) => {
      const response = await fetch(`/app/api/webhooks/${webhookId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://attacker.example/in' }),
      });
      return { status: response.status, body: await response.json() };
    }, id);
    expect(moved.status).toBe(403);
    expect(moved.body.error.issues[0].customCode).toBe('webhookOwnedByAnother');

    // Their own webhook is theirs to change; the Admin still edits every webhook.
    await editorPage.getByTestId('webhook-add').click();
    await dialog(editorPage).getByTestId('webhook-url').fill('https://sam.example.com/in');
    await event('record.created', editorPage).check();
    await dialog(editorPage).getByTestId('webhook-save').click();
    await dialog(editorPage).waitFor({ state: 'detached' });
    await openRow('https://sam.example.com/in', editorPage);
    await expect(dialog(editorPage).getByTestId('webhook-owned-by-another').count()).resolves.toBe(0);
    await expect(dialog(editorPage).getByTestId('webhook-url').getAttribute('readonly')).resolves.toBeNull();
    const samsId = (await row('https://sam.example.com/in', editorPage).getAttribute('data-webhook-id'))!;
    await closeDialog(editorPage);
    await editorPage.context().close();
    await appFetch(page, 'DELETE', `/app/api/webhooks/${samsId}`); // the next step counts the rows

    await page.getByTestId('nav-webhooks').click();
    await openRow(HOOK_URL);
    await expect(dialog().getByTestId('webhook-owned-by-another').count()).resolves.toBe(0);
    await expect(dialog().getByTestId('webhook-url').getAttribute('readonly')).resolves.toBeNull();
    await closeDialog();
  });

  it('sends the Standard Webhooks headers by default, showing the secret as the libraries take it (issue 27, item 2; issue 37, item 4)', async () => {
    await page.getByTestId('nav-webhooks').click();
    await openRow(HOOK_URL);
    await dialog().getByTestId('webhook-reveal').click();
    await expect(dialog().getByTestId('webhook-standard-webhooks').isChecked()).resolves.toBe(true);
    // A secret chosen by hand: whsec_ + base64 of its bytes.
    await expect(dialog().getByTestId('webhook-standard-secret').textContent()).resolves.toBe(
      `whsec_${Buffer.from(SECRET, 'utf8').toString('base64')}`,
    );
    await screenshot(page, '09b-standard-webhooks');
    await dialog().getByTestId('webhook-standard-webhooks').uncheck();
    const off = nextWrite('PATCH');
    await dialog().getByTestId('webhook-save').click();
    expect((await off).postDataJSON()).toEqual({ standardWebhooks: false });
    await dialog().waitFor({ state: 'detached' });

    await openRow(HOOK_URL);
    await expect(dialog().getByTestId('webhook-standard-webhooks').isChecked()).resolves.toBe(false);
    await dialog().getByTestId('webhook-standard-webhooks').check();
    const updated = nextWrite('PATCH');
    await dialog().getByTestId('webhook-save').click();
    expect((await updated).postDataJSON()).toEqual({ standardWebhooks: true });
    await dialog().waitFor({ state: 'detached' });
  });

  it('rotates the secret from the dialog: a generated one, the old one signing for the grace period', async () => {
    await openRow(HOOK_URL);
    await expect(dialog().getByTestId('webhook-standard-webhooks').isChecked()).resolves.toBe(true);
    await expect(dialog().getByTestId('webhook-previous-secret').count()).resolves.toBe(0);
    // Not with unsaved edits, which the rotation would lose.
    const description = await dialog().getByTestId('webhook-description').inputValue();
    await dialog().getByTestId('webhook-description').fill('Edited, not saved');
    await expect(dialog().getByTestId('webhook-secret-rotate').count()).resolves.toBe(0);
    await dialog().getByTestId('webhook-description').fill(description);
    await dialog().getByTestId('webhook-secret-rotate').click();

    const rotation = page.getByTestId('rotate-secret');
    await rotation.waitFor();
    const secret = await rotation.getByTestId('rotate-secret-value').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(rotation.getByTestId('rotate-secret-grace').inputValue()).resolves.toBe('24');
    // A generated secret is given to the libraries as it is.
    await expect(rotation.getByTestId('rotate-secret-standard').textContent()).resolves.toBe(secret);
    await rotation.getByTestId('rotate-secret-grace').fill('2');
    await screenshot(page, '09c-rotate-secret');
    const rotated = nextWrite('POST');
    await rotation.getByTestId('rotate-secret-confirm').click();
    expect((await rotated).postDataJSON()).toEqual({ secret, graceHours: 2 });
    await rotation.waitFor({ state: 'detached' });
    await dialog().waitFor({ state: 'detached' });

    const id = (await row(HOOK_URL).getAttribute('data-webhook-id'))!;
    await expect(appFetch(page, 'GET', `/app/api/webhooks/${id}/secrets`)).resolves.toMatchObject({ secret });
    await openRow(HOOK_URL);
    await expect(dialog().getByTestId('webhook-previous-secret').textContent()).resolves.toContain(
      'the previous secret still signs until',
    );
    await closeDialog();
  });

  it('the Admin deletes the webhook from its dialog, after a confirmation', async () => {
    await page.getByTestId('nav-webhooks').click();
    await openRow(HOOK_URL);
    await dialog().getByTestId('webhook-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, '09-confirm-delete');
    // Cancel first: back to the webhook, nothing deleted.
    await page.getByTestId('confirm-cancel').click();
    await dialog().getByTestId('webhook-delete').click();
    const deleted = nextWrite('DELETE');
    await page.getByTestId('confirm-ok').click();
    await deleted;
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    await row(HOOK_URL).waitFor({ state: 'detached' });
    await expect(page.getByTestId('webhooks-notice').textContent()).resolves.toContain('deleted');
    await page.reload();
    await eventually(async () => (await listed()).join() === OTHER_URL, 'only the other webhook remains');
    await screenshot(page, '10-after-delete');
  });
});
