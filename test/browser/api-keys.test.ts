import type { Page } from 'playwright-core';
import {
  acceptInvitationInBrowser,
  confirmAddressInBrowser,
  browserToday,
  inviteInBrowser,
  eventually,
  pageHolds,
  screenshot,
  signInInBrowser,
  useBrowserSession,
} from '../helpers/browser';
import { invitationLinkSentBy } from '../helpers/mailboxes';
import type { TestApp } from '../helpers/test-app';

/**
 * The web app in a real headless Chromium against the real API (PostgreSQL, Temporal test
 * server): API keys as docs/api.md#authentication, docs/api.md#permissions, docs/api.md#limits
 * and docs/app-api.md describe them. The steps build on each other, in order.
 * BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const KEY_VALUE = /^[A-Za-z]{64}$/;
const PASSWORD = 'correct horse battery';
const VIEWPORT = { width: 1280, height: 800 };

const admin = { name: 'Ada Admin', email: 'ada@example.com', workspace: 'Analytical Engines' };
const member = { name: 'Bob Member', email: 'bob@example.com' };

/** GET /api/v1/me with an API key: the status. */
async function restStatus(baseUrl: string, key: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/me`, { headers: { 'x-api-key': key } });
  await response.arrayBuffer();
  return response.status;
}

function card(page: Page, name: string) {
  return page
    .getByTestId('api-key-card')
    .filter({ has: page.getByTestId('api-key-name').getByText(name, { exact: true }) });
}

describe('web app: API keys, members and roles in a browser', () => {
  const session = useBrowserSession({ context: { viewport: VIEWPORT } });
  let app: TestApp;
  let page: Page;
  let memberPage: Page;
  let standardKey = '';
  let quickKey = '';
  let memberKey = '';

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('is not signed in at first: a settings page leads to sign-in', async () => {
    await page.goto(`${app.baseUrl}/settings/api-keys`);
    await page.waitForURL(`${app.baseUrl}/sign-in?next=%2Fsettings%2Fapi-keys`);
    await page.getByTestId('sign-in-form').waitFor();
  });

  it('signs up: a new workspace where the person is Admin, then the onboarding, then the Dashboard', async () => {
    await page.goto(`${app.baseUrl}/sign-up`);
    await page.getByTestId('sign-up-name').fill(admin.name);
    await page.getByTestId('sign-up-email').fill(admin.email);
    await page.getByTestId('sign-up-password').fill(PASSWORD);
    await page.getByTestId('sign-up-workspace').fill(admin.workspace);
    await screenshot(page, '01-sign-up');
    await page.getByTestId('sign-up-submit').click();
    // The address is proven by the e-mailed link before the account can do anything (issue 34).
    await confirmAddressInBrowser(page, app.baseUrl, admin.email);

    await page.waitForURL(`${app.baseUrl}/onboarding`);
    // The wizard offers the same quick connections as Settings → API keys.
    await page.getByTestId('quick-connection-cursor').waitFor();
    await page.getByTestId('quick-connection-claude-connector').click();
    await expectVisible(page.getByTestId('quick-instructions'));
    await screenshot(page, '02-onboarding');
    await page.getByTestId('onboarding-skip').click();

    await page.waitForURL(`${app.baseUrl}/`);
    await expect(page.getByTestId('dashboard-workspace').textContent()).resolves.toBe(admin.workspace);
    await expect(page.getByTestId('dashboard-role').textContent()).resolves.toBe('Admin');
    await expectVisible(page.getByTestId('nav-api-keys'));
    await expectVisible(page.getByTestId('nav-members'));
    await expectVisible(page.getByTestId('nav-roles'));
    // Skipped: the wizard does not come back.
    await page.goto(`${app.baseUrl}/onboarding`);
    await page.waitForURL(`${app.baseUrl}/`);
  });

  it('creates a standard key and shows its 64-letter value once: never again after closing, nor after reload', async () => {
    await page.getByTestId('nav-api-keys').click();
    await page.getByTestId('api-keys-empty').waitFor();
    await page.getByTestId('add-api-key').click();
    await page.getByTestId('add-standard-key').click();
    await page.getByTestId('key-name').fill('Reporting script');
    await page.getByTestId('key-create-submit').click();

    const dialog = page.getByTestId('created-key-dialog');
    await dialog.waitFor();
    standardKey = (await page.getByTestId('created-key-value').textContent()) ?? '';
    expect(standardKey).toMatch(KEY_VALUE);
    await expect(page.getByTestId('created-key-snippet-title').textContent()).resolves.not.toBe('');
    await expect(page.getByTestId('created-key-snippet').textContent()).resolves.toContain(standardKey);
    await expectVisible(page.getByTestId('copy-key'));
    await screenshot(page, '03-standard-key-created');

    // Closing asks first unless the key is said to be copied (keyboard-and-layout.test.ts covers the asking).
    await page.getByTestId('created-key-copied').check();
    await page.getByTestId('created-key-done').click();
    await dialog.waitFor({ state: 'detached' });
    await card(page, 'Reporting script').waitFor();
    expect(await pageHolds(page, standardKey)).toBe(false);

    const listed = page.waitForResponse((response) => response.url().endsWith('/app/api/api-keys'));
    await page.reload();
    const listing = await (await listed).text();
    await card(page, 'Reporting script').waitFor();
    expect(listing).not.toContain(standardKey);
    expect(await pageHolds(page, standardKey)).toBe(false);
  });

  it('shows Created at, Expires at (Never) and Last used (Never) on the key card', async () => {
    const reporting = card(page, 'Reporting script');
    await expect(reporting.textContent()).resolves.toMatch(/Created at.*Expires at.*Never.*Last used.*Never/);
    const createdAt = await reporting.getByTestId('api-key-created-at').getAttribute('datetime');
    expect(Math.abs(Date.now() - Date.parse(createdAt ?? ''))).toBeLessThan(5 * 60 * 1000);
    await expect(reporting.getByTestId('api-key-expires').textContent()).resolves.toBe('Never');
    await expect(reporting.getByTestId('api-key-last-used').textContent()).resolves.toBe('Never');
  });

  it('creates a quick-connection key: named after the client, expiring exactly 365 days after creation', async () => {
    await page.getByTestId('add-api-key').click();
    await page.getByTestId('add-quick-connection').click();
    await page.getByTestId('quick-dialog').waitFor();
    await screenshot(page, '04-quick-connections');
    await page.getByTestId('quick-connection-cursor').click();

    const dialog = page.getByTestId('created-key-dialog');
    await dialog.waitFor();
    quickKey = (await page.getByTestId('created-key-value').textContent()) ?? '';
    expect(quickKey).toMatch(KEY_VALUE);
    expect(quickKey).not.toBe(standardKey);
    await expect(page.getByTestId('created-key-snippet').textContent()).resolves.toContain(quickKey);
    await screenshot(page, '05-quick-key-created');
    await page.getByTestId('created-key-copied').check();
    await page.getByTestId('dialog-close').click();
    await dialog.waitFor({ state: 'detached' });

    const cursor = card(page, 'Cursor');
    await cursor.waitFor();
    const createdAt = await cursor.getByTestId('api-key-created-at').getAttribute('datetime');
    const expiresAt = await cursor.getByTestId('api-key-expires-at').getAttribute('datetime');
    expect(Date.parse(expiresAt ?? '') - Date.parse(createdAt ?? '')).toBe(365 * DAY_MS);
    await expect(cursor.getByTestId('api-key-last-used').textContent()).resolves.toBe('Never');
    expect(await pageHolds(page, quickKey)).toBe(false);
    // Newest first.
    await expect(page.getByTestId('api-key-name').allTextContents()).resolves.toEqual([
      'Cursor',
      'Reporting script',
    ]);
  });

  it('an OAuth quick connection creates no key, only instructions', async () => {
    await page.getByTestId('add-api-key').click();
    await page.getByTestId('add-quick-connection').click();
    await page.getByTestId('quick-connection-chatgpt-connector').click();
    await expect(page.getByTestId('quick-instructions').textContent()).resolves.toContain('OAuth');
    await expect(page.getByTestId('created-key-dialog').count()).resolves.toBe(0);
    await page.getByTestId('quick-dialog').getByTestId('dialog-close').click();
    await expect(page.getByTestId('api-key-card').count()).resolves.toBe(2);
  });

  it('a standard key with an expiry date: the date means the end of that day in the browser’s zone, at least 24 h ahead', async () => {
    // Issue 10, hole 8: a browser in Los Angeles; the page's dates are that zone's, not UTC's.
    const zone = 'America/Los_Angeles';
    const zoned = await (
      await session.browser.newContext({ viewport: VIEWPORT, locale: 'en-US', timezoneId: zone })
    ).newPage();
    await signInInBrowser(zoned, app.baseUrl, admin.email, PASSWORD);
    await zoned.goto(`${app.baseUrl}/settings/api-keys`);
    await zoned.getByTestId('add-api-key').click();
    await zoned.getByTestId('add-standard-key').click();
    await zoned.getByTestId('key-name').fill('Quarterly export');
    await expect(zoned.getByTestId('key-expiry-never').isChecked()).resolves.toBe(true);
    await zoned.getByTestId('key-expiry-on-date').check();
    const date = zoned.getByTestId('key-expiry-date');
    const tomorrow = await browserToday(zoned, 1);
    await expect(date.getAttribute('min')).resolves.toBe(tomorrow);
    await expect(date.getAttribute('max')).resolves.toBe(await browserToday(zoned, 365));
    await expect(zoned.getByTestId('key-expiry-rule').textContent()).resolves.toBe(
      `1 to 365 days ahead: the key works until the end of that day (23:59, ${zone}), at least 24 hours.`,
    );
    // The earliest date offered, whatever the hour: the key still works for a day or more.
    await date.fill(tomorrow);
    const sent = zoned.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/app/api/api-keys'),
    );
    await zoned.getByTestId('key-create-submit').click();
    expect((await sent).postDataJSON()).toEqual({
      name: 'Quarterly export',
      expiresAt: tomorrow,
      timeZone: zone,
    });
    await expect(zoned.getByTestId('created-key-value').textContent()).resolves.toMatch(KEY_VALUE);
    await zoned.getByTestId('created-key-copied').check();
    await zoned.getByTestId('created-key-done').click();

    const quarterly = card(zoned, 'Quarterly export');
    await quarterly.waitFor();
    const endOfTomorrow = await zoned.evaluate((day) => {
      const [year, month, dayOfMonth] = day.split('-').map(Number) as [number, number, number];
      return new Date(year, month - 1, dayOfMonth, 23, 59, 59, 999).toISOString();
    }, tomorrow);
    const expiresAt = await quarterly.getByTestId('api-key-expires-at').getAttribute('datetime');
    expect(expiresAt).toBe(endOfTomorrow);
    const createdAt = await quarterly.getByTestId('api-key-created-at').getAttribute('datetime');
    expect(Date.parse(expiresAt ?? '') - Date.parse(createdAt ?? '')).toBeGreaterThanOrEqual(DAY_MS);
    await screenshot(zoned, '05a-expiry-end-of-day');
    await zoned.context().close();

    await page.reload();
    await card(page, 'Quarterly export').waitFor();
    await expect(page.getByTestId('api-key-name').allTextContents()).resolves.toEqual([
      'Quarterly export',
      'Cursor',
      'Reporting script',
    ]);
  });

  it('the keys work on the REST API, and the card then shows when it was last used', async () => {
    expect(await restStatus(app.baseUrl, standardKey)).toBe(200);
    expect(await restStatus(app.baseUrl, quickKey)).toBe(200);
    expect(await restStatus(app.baseUrl, 'a'.repeat(64))).toBe(401);

    await page.reload();
    const used = card(page, 'Reporting script').getByTestId('api-key-last-used-at');
    await used.waitFor();
    expect(Math.abs(Date.now() - Date.parse((await used.getAttribute('datetime')) ?? ''))).toBeLessThan(
      5 * 60 * 1000,
    );
  });

  it('invites a member on the Members page, who accepts the mailed link with a password of their own and sees none of the admin’s keys', async () => {
    await page.getByTestId('nav-members').click();
    await page.getByTestId('members-table').waitFor();
    // A refusal shows the server's message, and the row keeps its saved value.
    const self = page.locator(`[data-testid=member-row][data-email="${admin.email}"]`);
    await self.getByTestId('member-role').selectOption({ label: 'Member' });
    const refusal = page.getByTestId('error-message');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.not.toMatch(/HTTP \d+/);
    await expect(self.getByTestId('member-role').locator('option:checked').textContent()).resolves.toBe(
      'Admin',
    );

    // Inviting adds nobody: the invitation waits, pending, until the person accepts the mailed link.
    const link = await invitationLinkSentBy(app.baseUrl, member.email, async () => {
      await page.getByTestId('invite-member').click();
      const dialog = page.getByTestId('invite-member-dialog');
      await dialog.getByTestId('invite-email').fill(member.email);
      await expect(dialog.getByTestId('invite-role').locator('option:checked').textContent()).resolves.toBe(
        'Member',
      );
      await dialog.getByTestId('invite-submit').click();
      await dialog.waitFor({ state: 'detached' });
    });
    const invitation = page.locator(`[data-testid=invitation-row][data-email="${member.email}"]`);
    await invitation.waitFor();
    await screenshot(page, '06-member-invited');
    await expect(
      page.locator(`[data-testid=member-row][data-email="${member.email}"]`).count(),
    ).resolves.toBe(0);
    await expect(page.getByTestId('temporary-password-dialog').count()).resolves.toBe(0);

    memberPage = await session.newPage();
    await acceptInvitationInBrowser(memberPage, link, { name: member.name, password: PASSWORD });
    await page.reload();
    const row = page.locator(`[data-testid=member-row][data-email="${member.email}"]`);
    await expect(row.getByTestId('member-name').textContent()).resolves.toBe(member.name);
    await expect(row.getByTestId('member-status').inputValue()).resolves.toBe('active');
    await page.getByTestId('invitations-empty').waitFor();
    // Signing in elsewhere works with the password the member chose.
    const elsewhere = await session.newPage();
    await signInInBrowser(elsewhere, app.baseUrl, member.email, PASSWORD);
    await elsewhere.context().close();
    await expect(memberPage.getByTestId('dashboard-role').textContent()).resolves.toBe('Member');
    await expect(memberPage.getByTestId('nav-members').count()).resolves.toBe(0);
    await expect(memberPage.getByTestId('nav-roles').count()).resolves.toBe(0);

    await memberPage.getByTestId('nav-api-keys').click();
    await memberPage.getByTestId('api-keys-empty').waitFor();
    await expect(memberPage.getByTestId('api-key-card').count()).resolves.toBe(0);
    expect(await pageHolds(memberPage, 'Reporting script')).toBe(false);

    // The member's own key, which the admin does not see either.
    await memberPage.getByTestId('add-api-key').click();
    await memberPage.getByTestId('add-standard-key').click();
    await memberPage.getByTestId('key-name').fill('Bob laptop');
    await memberPage.getByTestId('key-create-submit').click();
    memberKey = (await memberPage.getByTestId('created-key-value').textContent()) ?? '';
    expect(memberKey).toMatch(KEY_VALUE);
    await memberPage.getByTestId('created-key-copied').check();
    await memberPage.getByTestId('created-key-done').click();
    await card(memberPage, 'Bob laptop').waitFor();
    await expect(memberPage.getByTestId('api-key-card').count()).resolves.toBe(1);
    expect(await restStatus(app.baseUrl, memberKey)).toBe(200);

    await page.goto(`${app.baseUrl}/settings/api-keys`);
    await card(page, 'Cursor').waitFor();
    await expect(page.getByTestId('api-key-name').allTextContents()).resolves.toEqual([
      'Quarterly export',
      'Cursor',
      'Reporting script',
    ]);
  });

  it('deletes a key after a confirmation step; the REST call with it then answers 401', async () => {
    const reporting = card(page, 'Reporting script');
    await reporting.getByTestId('api-key-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, '07-confirm-delete');
    await page.getByTestId('confirm-cancel').click();
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    await expect(reporting.count()).resolves.toBe(1);
    expect(await restStatus(app.baseUrl, standardKey)).toBe(200);

    await reporting.getByTestId('api-key-delete').click();
    await page.getByTestId('confirm-ok').click();
    await reporting.waitFor({ state: 'detached' });
    await expect(page.getByTestId('api-key-name').allTextContents()).resolves.toEqual([
      'Quarterly export',
      'Cursor',
    ]);
    expect(await restStatus(app.baseUrl, standardKey)).toBe(401);
    expect(await restStatus(app.baseUrl, quickKey)).toBe(200);

    await page.reload();
    await card(page, 'Cursor').waitFor();
    await expect(card(page, 'Reporting script').count()).resolves.toBe(0);
  });

  it('a role with Read access None hides API keys, and opening the page directly leads to the Dashboard', async () => {
    await page.getByTestId('nav-roles').click();
    await page.getByTestId('roles-table').waitFor();
    // Built-in roles are read-only.
    const builtin = page.locator('[data-testid=role-row][data-builtin=admin]');
    await expect(builtin.getByTestId('role-read').count()).resolves.toBe(0);
    await expect(builtin.getByTestId('role-create').isDisabled()).resolves.toBe(true);

    await page.getByTestId('role-name-input').fill('No API access');
    await page.getByTestId('create-role').click();
    const row = page.locator('[data-testid=role-row][data-role-name="No API access"]');
    await row.waitFor();
    // A new role starts with Read access None; the boxes wait for Read access All.
    await expect(row.getByTestId('role-read').inputValue()).resolves.toBe('none');
    for (const box of ['role-create', 'role-edit', 'role-delete']) {
      await expect(row.getByTestId(box).isDisabled()).resolves.toBe(true);
      await expect(row.getByTestId(box).isChecked()).resolves.toBe(false);
    }
    await row.getByTestId('role-read').selectOption('all');
    await expectEnabled(row.getByTestId('role-create'));
    await row.getByTestId('role-create').click();
    await expectChecked(row.getByTestId('role-create'));
    await screenshot(page, '08-roles');
    await row.getByTestId('role-read').selectOption('none');
    await expectDisabled(row.getByTestId('role-create'));
    await expect(row.getByTestId('role-create').isChecked()).resolves.toBe(false);
    await page.reload();
    await expect(row.getByTestId('role-read').inputValue()).resolves.toBe('none');

    await page.getByTestId('nav-members').click();
    const memberRow = page.locator(`[data-testid=member-row][data-email="${member.email}"]`);
    const setRole = async (label: string) => {
      const updated = page.waitForResponse((response) => response.request().method() === 'PATCH');
      await memberRow.getByTestId('member-role').selectOption({ label });
      expect((await updated).status()).toBe(200);
    };

    // Read access All with no box ticked (built-in Viewer): the member's keys are listed, no Add, no Delete.
    await setRole('Viewer');
    await memberPage.goto(`${app.baseUrl}/settings/api-keys`);
    await card(memberPage, 'Bob laptop').waitFor();
    await expect(memberPage.getByTestId('add-api-key').count()).resolves.toBe(0);
    await expect(memberPage.getByTestId('api-key-delete').count()).resolves.toBe(0);

    await setRole('No API access');

    await memberPage.goto(`${app.baseUrl}/`);
    await memberPage.getByTestId('dashboard').waitFor();
    await expect(memberPage.getByTestId('dashboard-role').textContent()).resolves.toBe('No API access');
    await expect(memberPage.getByTestId('nav-api-keys').count()).resolves.toBe(0);
    await expect(memberPage.getByTestId('dashboard-links').getByText('API keys').count()).resolves.toBe(0);
    await memberPage.goto(`${app.baseUrl}/settings/api-keys`);
    await memberPage.waitForURL(`${app.baseUrl}/`);
    await memberPage.getByTestId('dashboard').waitFor();
    await screenshot(memberPage, '09-read-none-dashboard');
    // And the member's key stops working on the API (docs/api.md#authentication).
    expect(await restStatus(app.baseUrl, memberKey)).toBe(403);
  });

  it('switches workspace from the header; keys belong to the workspace they were made in', async () => {
    // Someone else's workspace, to which the admin (an existing account) is then invited.
    const other = await session.newPage();
    await other.goto(`${app.baseUrl}/sign-up`);
    await other.getByTestId('sign-up-name').fill('Carol');
    await other.getByTestId('sign-up-email').fill('carol@example.com');
    await other.getByTestId('sign-up-password').fill(PASSWORD);
    await other.getByTestId('sign-up-workspace').fill('Difference Engines');
    await other.getByTestId('sign-up-submit').click();
    await confirmAddressInBrowser(other, app.baseUrl, 'carol@example.com');
    await other.getByTestId('onboarding-finish').click();
    await other.waitForURL(`${app.baseUrl}/`);
    const link = await inviteInBrowser(other, app.baseUrl, { email: admin.email });
    await expect(
      other.locator(`[data-testid=member-row][data-email="${admin.email}"]`).count(),
    ).resolves.toBe(0);

    // The admin, signed in on `page`, opens the mailed link and joins; the session moves there.
    await acceptInvitationInBrowser(page, link);
    await expect(page.getByTestId('dashboard-workspace').textContent()).resolves.toBe('Difference Engines');
    await other.reload();
    await other.locator(`[data-testid=member-row][data-email="${admin.email}"]`).waitFor();
    await other.getByTestId('invitations-empty').waitFor();
    await other.context().close();

    // Back to the admin's own workspace, to switch from the header.
    await page.getByTestId('workspace-switcher').selectOption({ label: admin.workspace });
    // Already on the Dashboard: wait for it to show the workspace switched to.
    await page.locator('[data-testid=dashboard-workspace]', { hasText: admin.workspace }).waitFor();
    await page.goto(`${app.baseUrl}/settings/api-keys`);
    await card(page, 'Cursor').waitFor();
    const switcher = page.getByTestId('workspace-switcher');
    await expect(switcher.locator('option').allTextContents()).resolves.toEqual(
      expect.arrayContaining([admin.workspace, 'Difference Engines']),
    );
    await switcher.selectOption({ label: 'Difference Engines' });
    await page.waitForURL(`${app.baseUrl}/`);
    await expect(page.getByTestId('dashboard-workspace').textContent()).resolves.toBe('Difference Engines');
    await expect(page.getByTestId('dashboard-role').textContent()).resolves.toBe('Member');
    await expect(page.getByTestId('nav-members').count()).resolves.toBe(0);
    await page.getByTestId('nav-api-keys').click();
    await page.getByTestId('api-keys-empty').waitFor();

    await page.getByTestId('workspace-switcher').selectOption({ label: admin.workspace });
    await expect(page.getByTestId('dashboard-workspace').textContent()).resolves.toBe(admin.workspace);
  });

  it('signs out from the header; signing in again returns to the page asked for', async () => {
    await page.getByTestId('sign-out').click();
    await page.waitForURL(`${app.baseUrl}/sign-in`);
    await page.goto(`${app.baseUrl}/settings/api-keys`);
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByTestId('sign-in-email').fill(admin.email);
    await page.getByTestId('sign-in-password').fill('wrong password');
    await page.getByTestId('sign-in-submit').click();
    await expectVisible(page.getByTestId('error-message'));
    await expect(page.getByTestId('error-message').textContent()).resolves.not.toMatch(/HTTP \d+/);
    await page.getByTestId('sign-in-password').fill(PASSWORD);
    await page.getByTestId('sign-in-submit').click();
    await page.waitForURL(`${app.baseUrl}/settings/api-keys`);
    await card(page, 'Cursor').waitFor();
  });

  it('the standard key dialog drops a refusal once its field is fixed, and a reopened dialog starts clean', async () => {
    const openDialog = async () => {
      await page.getByTestId('add-api-key').click();
      await page.getByTestId('add-standard-key').click();
      return page.getByTestId('standard-key-dialog');
    };
    const refusal = (dialog: ReturnType<Page['getByTestId']>) => dialog.getByTestId('error-message');

    // A name of spaces passes the browser's `required`, and is refused as empty.
    let dialog = await openDialog();
    await dialog.getByTestId('key-name').fill('   ');
    await dialog.getByTestId('key-create-submit').click();
    await expect(refusal(dialog).textContent()).resolves.toMatch(/Name must be 1 to 255 characters/);
    await dialog.getByTestId('key-name').fill('Fixed name');
    await refusal(dialog).waitFor({ state: 'detached' });

    // An expiry out of range (the browser's own range check turned off, as an older browser lacks it).
    await dialog.locator('form').evaluate((form) => ((form as { noValidate: boolean }).noValidate = true));
    await dialog.getByTestId('key-expiry-on-date').check();
    await dialog.getByTestId('key-expiry-date').fill(await browserToday(page, 400));
    await dialog.getByTestId('key-create-submit').click();
    await expect(refusal(dialog).textContent()).resolves.toMatch(/Choose an expiry date from/);
    await dialog.getByTestId('key-expiry-never').check();
    await refusal(dialog).waitFor({ state: 'detached' });

    // Refused again, then closed: the dialog opened next shows no old refusal.
    await dialog.getByTestId('key-name').fill(' ');
    await dialog.getByTestId('key-create-submit').click();
    await refusal(dialog).waitFor();
    await dialog.getByTestId('dialog-close').click();
    await dialog.waitFor({ state: 'detached' });
    dialog = await openDialog();
    await expect(dialog.getByTestId('key-name').inputValue()).resolves.toBe('');
    await expect(refusal(dialog).count()).resolves.toBe(0);
    await dialog.getByTestId('dialog-close').click();
    await expect(card(page, 'Fixed name').count()).resolves.toBe(0);
  });
});

type Probe = { waitFor: (options: { state: 'visible' }) => Promise<void> };

async function expectVisible(locator: Probe): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}

type Box = { isEnabled: () => Promise<boolean>; isChecked: () => Promise<boolean> };

const expectEnabled = (box: Box) => eventually(() => box.isEnabled(), 'the box is enabled');
const expectDisabled = (box: Box) => eventually(async () => !(await box.isEnabled()), 'the box is disabled');
const expectChecked = (box: Box) => eventually(() => box.isChecked(), 'the box is checked');
