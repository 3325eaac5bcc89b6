import type { Locator, Page, Request } from 'playwright-core';
import {
  acceptInvitationInBrowser,
  byField,
  eventually,
  inviteInBrowser,
  screenshot,
  useBrowserSession,
} from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';

/**
 * Record access on roles in a real headless Chromium against the real API (docs/app-api.md,
 * "Record access on roles"): an Admin sets a custom role's access per record type and its
 * restricted fields on the Roles page; a member holding that role does not get the type offered
 * on the Records page and reads the restricted field as "Restricted". The steps build on each
 * other, in order. BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const member = { name: 'Sam Sales', email: 'sam@example.com', password: 'ledger violet orbit 7' };
const ROLE = 'Sales without deals';

describe('web app: record access on roles in a browser', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;
  let memberPage: Page;

  const roleRow = () => page.locator(`[data-testid=role-row][data-role-name="${ROLE}"]`);
  const accessDialog = () => page.getByTestId('record-access-dialog');
  const typeSection = (scope: Locator, name: string) =>
    scope.locator(`[data-testid=role-type][data-type-name="${name}"]`);

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('an Admin creates a contact and a deal on the Records page', async () => {
    await page.getByTestId('nav-records').click();
    for (const [type, values] of [
      ['Contacts', { Name: 'Grace Hopper', Email: 'grace@example.com', Phone: '+1 555 0100' }],
      ['Deals', { Name: 'Compiler deal', Amount: '1000' }],
    ] as const) {
      await page.getByTestId('record-type').selectOption({ label: type });
      await page.getByTestId('records-empty').waitFor();
      await page.getByTestId('record-create').click();
      for (const [field, value] of Object.entries(values)) {
        await byField(page, 'record-input', field).fill(value);
      }
      await page.getByTestId('record-save').click();
      await page.getByTestId('record-dialog').getByTestId('dialog-close').click();
      await page.locator(`[data-testid=record-row][data-title="${values.Name}"]`).waitFor();
    }
  });

  it('built-in roles show their record access read-only', async () => {
    await page.getByTestId('nav-roles').click();
    await page.getByTestId('roles-table').waitFor();
    const adminRow = page.locator('[data-testid=role-row][data-builtin=admin]');
    await adminRow.getByTestId('role-records-edit').click();
    await accessDialog().getByTestId('record-access-admin').waitFor();
    await expect(accessDialog().getByTestId('record-access-save').count()).resolves.toBe(0);
    await accessDialog().getByTestId('record-access-close').click();

    const memberRow = page.locator('[data-testid=role-row][data-builtin=member]');
    await expect(memberRow.getByTestId('role-records-summary').textContent()).resolves.toBe('All types');
    await memberRow.getByTestId('role-records-edit').click();
    await expect(accessDialog().getByTestId('role-default-record-access').isDisabled()).resolves.toBe(true);
    await expect(
      typeSection(accessDialog(), 'Deals').getByTestId('role-type-access').isDisabled(),
    ).resolves.toBe(true);
    await expect(accessDialog().getByTestId('record-access-save').count()).resolves.toBe(0);
    await accessDialog().getByTestId('dialog-close').click();
    await accessDialog().waitFor({ state: 'detached' });
  });

  it('creates a role, sets Deals to None and restricts the contact field Email; the settings are kept', async () => {
    await page.getByTestId('role-name-input').fill(ROLE);
    await page.getByTestId('create-role').click();
    await roleRow().waitFor();
    await expect(roleRow().getByTestId('role-records-summary').textContent()).resolves.toBe('All types');

    await roleRow().getByTestId('role-records-edit').click();
    await accessDialog().waitFor();
    await expect(accessDialog().getByTestId('role-default-record-access').inputValue()).resolves.toBe('all');
    const deals = typeSection(accessDialog(), 'Deals').getByTestId('role-type-access');
    await expect(deals.inputValue()).resolves.toBe('default');
    await deals.selectOption('none');
    await byField(typeSection(accessDialog(), 'Contacts'), 'role-restricted-field', 'Email').check();
    await screenshot(page, '11-role-record-access');
    const saved = page.waitForRequest((request: Request) => request.method() === 'PATCH');
    await accessDialog().getByTestId('record-access-save').click();
    const body = (await saved).postDataJSON() as {
      defaultRecordAccess: string;
      recordAccess: Record<string, string>;
      restrictedFieldIds: string[];
    };
    expect(body.defaultRecordAccess).toBe('all');
    expect(Object.values(body.recordAccess)).toEqual(['none']);
    expect(body.restrictedFieldIds).toHaveLength(1);
    await accessDialog().waitFor({ state: 'detached' });
    await expect(roleRow().getByTestId('role-records-summary').textContent()).resolves.toBe(
      'All except Deals · 1 restricted field',
    );

    await page.reload();
    await roleRow().waitFor();
    await expect(roleRow().getByTestId('role-records-summary').textContent()).resolves.toBe(
      'All except Deals · 1 restricted field',
    );
    await screenshot(page, '12-roles-table');
    await roleRow().getByTestId('role-records-edit').click();
    await expect(
      typeSection(accessDialog(), 'Deals').getByTestId('role-type-access').inputValue(),
    ).resolves.toBe('none');
    await expect(
      typeSection(accessDialog(), 'Contacts').getByTestId('role-type-access').inputValue(),
    ).resolves.toBe('default');
    await expect(
      byField(typeSection(accessDialog(), 'Contacts'), 'role-restricted-field', 'Email').isChecked(),
    ).resolves.toBe(true);
    await expect(
      byField(typeSection(accessDialog(), 'Contacts'), 'role-restricted-field', 'Name').isChecked(),
    ).resolves.toBe(false);
    await screenshot(page, '12-role-record-access-kept-dialog');
    await accessDialog().getByTestId('dialog-close').click();
  });

  it('a member with that role is not offered Deals and reads the contact’s Email as Restricted', async () => {
    await page.getByTestId('nav-members').click();
    const link = await inviteInBrowser(page, app.baseUrl, { email: member.email, roleLabel: ROLE });

    memberPage = await session.newPage();
    await acceptInvitationInBrowser(memberPage, link, member);
    await expect(memberPage.getByTestId('dashboard-role').textContent()).resolves.toBe(ROLE);
    await memberPage.getByTestId('nav-records').click();
    const types = memberPage.getByTestId('record-type');
    await types.waitFor();
    const offered = await types.locator('option').allTextContents();
    expect(offered).not.toContain('Deals');
    expect(offered).toEqual(expect.arrayContaining(['Contacts', 'Organizations', 'Services', 'Tasks']));

    await types.selectOption({ label: 'Contacts' });
    const grace = memberPage.locator('[data-testid=record-row][data-title="Grace Hopper"]');
    await grace.waitFor();
    const cells = await grace.getByTestId('record-cell').allTextContents();
    expect(cells).toEqual(['Grace Hopper', 'Restricted', '+1 555 0100', '—']);
    await screenshot(memberPage, '13-member-records');

    await grace.getByTestId('record-open').click();
    const dialog = memberPage.getByTestId('record-dialog');
    const email = byField(dialog, 'record-field', 'Email').getByTestId('record-field-value');
    await expect(email.textContent()).resolves.toBe('Restricted');
    await expect(email.getAttribute('data-state')).resolves.toBe('restricted');
    await expect(dialog.textContent()).resolves.not.toContain('grace@example.com');
    await screenshot(memberPage, '14-member-record-restricted');

    // Editing: the restricted field is shown, read-only, and never sent.
    await dialog.getByTestId('record-edit').click();
    await byField(memberPage, 'record-input-restricted', 'Email').waitFor();
    await expect(byField(memberPage, 'record-input', 'Email').count()).resolves.toBe(0);
    await byField(memberPage, 'record-input', 'Phone').fill('+1 555 0199');
    const updated = memberPage.waitForRequest((request: Request) => request.method() === 'PATCH');
    await memberPage.getByTestId('record-save').click();
    const change = (await updated).postDataJSON() as { values: Record<string, unknown> };
    expect(Object.values(change.values)).toEqual(['+1 555 0199']);
    await eventually(
      async () =>
        (await byField(dialog, 'record-field', 'Phone').getByTestId('record-field-value').textContent()) ===
        '+1 555 0199',
      'the new phone shows',
    );
    await expect(email.textContent()).resolves.toBe('Restricted');

    // A deal's address leads to a type the member may read, not to Deals.
    await memberPage.goto(`${app.baseUrl}/records?type=deal`);
    await memberPage.getByTestId('records-page').waitFor();
    await expect(
      memberPage.getByTestId('record-type').locator('option:checked').textContent(),
    ).resolves.not.toBe('Deals');
    await memberPage.context().close();
  });
});
