import type { Locator, Page, Request } from 'playwright-core';
import {
  appFetch,
  invitedMemberFromPage,
  pageHolds,
  screenshot,
  signInInBrowser,
  useBrowserSession,
  webhookWritesDuring,
} from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';

/**
 * Record sources in the webhook dialog, in a real headless Chromium against the real API
 * (docs/api.md#rest-endpoints: recordTrigger and recordSources, a record source's search, filters on
 * fields and relationships and changed fields): an Admin sets them by field name for the single
 * trigger and for a second source, and reads them back over REST; opening and saving without edits
 * changes nothing; the dialog checks what the server would refuse; a member whose role hides Amount
 * sees no trace of it in their own webhook, keeps it on save, and gets the server's refusal beside
 * it when they change the source. The steps build on each other, in order.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const HOOK_URL = 'https://hooks.example.com/deals';
const SAMS_URL = 'https://sam.example.com/in';
const ADMINS_URL = 'https://erp.example.com/won-deals';
/** A filter value only a reader of Amount may learn. */
const SECRET_AMOUNT = 987654;

type Field = { id: string; name: string };
type Source = { query: Record<string, unknown>; changedFieldIds?: string[]; events?: string[] };
type Webhook = {
  id: string;
  url: string;
  updatedAt: string;
  recordTrigger: Source | null;
  recordSources: Source[] | null;
};

describe('web app: record sources in the webhook dialog', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;
  let apiKey = '';
  let deals: { id: string; fields: Field[] };
  let contacts: { id: string; fields: Field[] };
  const fieldId = (type: { fields: Field[] }, name: string) => type.fields.find((f) => f.name === name)!.id;

  const dialog = (on: Page = page) => on.getByTestId('webhook-dialog');
  const row = (url: string, on: Page = page) => on.locator(`[data-testid=webhook-row][data-url="${url}"]`);
  const source = (index: number, on: Page = page) => dialog(on).getByTestId('record-source').nth(index);
  const filterRow = (scope: Locator, index: number) => scope.getByTestId('record-filter').nth(index);
  const changedField = (scope: Locator, name: string) =>
    scope.locator(`[data-testid=record-changed-field][data-field-name="${name}"]`);

  /** The webhook as the REST API reads it, with an API key. */
  async function restRead(url: string): Promise<Webhook> {
    const response = await fetch(`${app.baseUrl}/api/v1/webhooks?limit=100`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Webhook[] };
    return data.find((webhook) => webhook.url === url)!;
  }

  function nextWrite(on: Page = page): Promise<Request> {
    return on.waitForRequest(
      (request) =>
        request.method() === 'PATCH' ||
        (request.method() === 'POST' && request.url().endsWith('/app/api/webhooks')),
    );
  }

  async function openRow(url: string, on: Page = page): Promise<void> {
    await row(url, on).getByTestId('webhook-open').click();
    await dialog(on).locator('form').waitFor();
    await dialog(on).getByTestId('webhook-schema-revision').waitFor();
  }

  /** Adds a filter to a source: field by name, condition by label, and a value when it takes one. */
  async function addFilter(scope: Locator, field: string, condition: string, value?: string) {
    await scope.getByTestId('record-filter-add').click();
    const added = scope.getByTestId('record-filter').last();
    await added.getByTestId('record-filter-field').selectOption({ label: field });
    await added.getByTestId('record-filter-op').selectOption({ label: condition });
    if (value === undefined) return;
    const input = added.getByTestId('record-filter-value');
    if ((await input.evaluate((element) => element.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }

  beforeAll(async () => {
    ({ app, page } = session);
    apiKey = (await appFetch(page, 'POST', '/app/api/api-keys', { name: 'REST reads' })).value;
    deals = (await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' })).type;
    contacts = (await appFetch(page, 'POST', '/app/api/model/read', { type: 'contact' })).type;
  });

  it('an Admin sets search, filters and changed fields by field name; REST reads their stable ids', async () => {
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhook-add').click();
    await dialog().getByTestId('webhook-url').fill(HOOK_URL);
    for (const event of ['record.created', 'record.updated']) {
      await dialog().locator(`[data-testid=webhook-event][data-event="${event}"]`).check();
    }
    await dialog().getByTestId('webhook-schema-revision').waitFor();
    await dialog().getByTestId('webhook-record-type').selectOption({ label: 'Deals' });
    const single = source(0);
    await single.getByTestId('record-source-search').fill('renewal');
    await addFilter(single, 'Stage', 'is', 'Won');
    await addFilter(single, 'Amount', 'is greater than', '1000');
    await addFilter(single, 'Organization (relationship)', 'is not empty');
    await changedField(single, 'Amount').check();
    await changedField(single, 'Stage').check();
    await screenshot(page, 'record-sources-01-single');

    const created = nextWrite();
    await dialog().getByTestId('webhook-save').click();
    await created;
    await dialog().waitFor({ state: 'detached' });
    const saved = await restRead(HOOK_URL);
    expect(saved.recordSources).toBeNull();
    expect(saved.recordTrigger).toEqual({
      query: {
        typeId: deals.id,
        search: 'renewal',
        filters: [
          { fieldId: fieldId(deals, 'Stage'), op: 'eq', value: 'Won' },
          { fieldId: fieldId(deals, 'Amount'), op: 'gt', value: 1000 },
          { fieldId: fieldId(deals, 'Organization'), op: 'isNotEmpty' },
        ],
      },
      changedFieldIds: [fieldId(deals, 'Amount'), fieldId(deals, 'Stage')],
    });
  });

  it('opening and saving without edits sends nothing, asks nothing and changes nothing', async () => {
    const before = await restRead(HOOK_URL);
    const writes = await webhookWritesDuring(page, async () => {
      await openRow(HOOK_URL);
      // The saved source reads back by name.
      await expect(source(0).getByTestId('record-source-search').inputValue()).resolves.toBe('renewal');
      await expect(
        filterRow(source(0), 1).getByTestId('record-filter-field').locator('option:checked').textContent(),
      ).resolves.toBe('Amount');
      await expect(filterRow(source(0), 1).getByTestId('record-filter-value').inputValue()).resolves.toBe(
        '1000',
      );
      await expect(changedField(source(0), 'Stage').isChecked()).resolves.toBe(true);
      await dialog().getByTestId('webhook-save').click();
      await dialog().waitFor({ state: 'detached' });
      await openRow(HOOK_URL);
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      await expect(page.getByTestId('confirm-dialog').count()).resolves.toBe(0);
    });
    expect(writes).toEqual([]);
    expect(await restRead(HOOK_URL)).toEqual(before);
  });

  it('a second source of another type, with its own search, filter, changed field and events', async () => {
    await openRow(HOOK_URL);
    await dialog().getByTestId('record-source-add').click();
    await expect(dialog().getByTestId('record-source').count()).resolves.toBe(2);
    const second = source(1);
    await second.getByTestId('webhook-record-type').selectOption({ label: 'Contacts' });
    await second.getByTestId('record-source-search').fill('grace');
    await addFilter(second, 'Email', 'contains', '@example.com');
    await changedField(second, 'Email').check();
    await second.locator('[data-testid=record-source-event][data-event="record.updated"]').check();
    await screenshot(page, 'record-sources-02-second-source');

    const written = nextWrite();
    await dialog().getByTestId('webhook-save').click();
    const body = (await written).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ recordTrigger: null, expectedSchemaRevision: expect.any(Number) });
    await dialog().waitFor({ state: 'detached' });
    const saved = await restRead(HOOK_URL);
    expect(saved.recordTrigger).toBeNull();
    expect(saved.recordSources).toHaveLength(2);
    expect(saved.recordSources![0]!.query).toMatchObject({ typeId: deals.id, search: 'renewal' });
    expect(saved.recordSources![1]).toEqual({
      query: {
        typeId: contacts.id,
        search: 'grace',
        filters: [{ fieldId: fieldId(contacts, 'Email'), op: 'contains', value: '@example.com' }],
      },
      changedFieldIds: [fieldId(contacts, 'Email')],
      events: ['record.updated'],
    });
  });

  it('checks what the server would refuse beside the setting, without sending; Remove source drops one', async () => {
    const writes = await webhookWritesDuring(page, async () => {
      await openRow(HOOK_URL);
      const second = source(1);
      await second.getByTestId('record-source-search').fill('x'.repeat(201));
      await filterRow(second, 0).getByTestId('record-filter-value').fill('');
      await dialog().getByTestId('webhook-save').click();
      await expect(
        second
          .locator('label', { has: page.getByTestId('record-source-search') })
          .getByTestId('record-source-issue')
          .textContent(),
      ).resolves.toBe('search can have at most 200 characters.');
      await expect(filterRow(second, 0).getByTestId('record-source-issue').textContent()).resolves.toBe(
        'contains needs a non-empty text.',
      );
      await screenshot(page, 'record-sources-03-checked');
    });
    expect(writes).toEqual([]);
    // Removing the second source leaves the first as the only one of the list.
    await dialog().getByTestId('record-source-remove').nth(1).click();
    const written = nextWrite();
    await dialog().getByTestId('webhook-save').click();
    expect(Object.keys((await written).postDataJSON() as object).sort()).toEqual([
      'expectedSchemaRevision',
      'recordSources',
    ]);
    await dialog().waitFor({ state: 'detached' });
    const saved = await restRead(HOOK_URL);
    expect(saved.recordSources).toHaveLength(1);
    expect(saved.recordSources![0]!.query.typeId).toBe(deals.id);
  });

  it('a member whose role hides Amount sees no trace of it in their webhook, keeps it on save, and gets the refusal beside it', async () => {
    const role = await appFetch(page, 'POST', '/app/api/roles', {
      name: 'Sales',
      apiRead: 'all',
      apiCreate: true,
      apiEdit: true,
    });
    const sam = await invitedMemberFromPage(page, app.baseUrl, {
      email: 'sam@example.com',
      name: 'Sam Sales',
      roleId: role.id,
    });
    const amount = fieldId(deals, 'Amount');
    // Set up while Sam could read Amount; then his role stops reading it.
    const trigger = {
      query: {
        typeId: deals.id,
        filters: [
          { fieldId: fieldId(deals, 'Stage'), op: 'eq', value: 'Won' },
          { fieldId: amount, op: 'gt', value: SECRET_AMOUNT },
        ],
      },
      changedFieldIds: [amount],
    };
    await appFetch(page, 'POST', '/app/api/webhooks', {
      url: SAMS_URL,
      events: ['record.updated'],
      recordTrigger: trigger,
      recordOwnerUserId: sam.userId,
    });
    await appFetch(page, 'PATCH', `/app/api/roles/${role.id}`, { restrictedFieldIds: [amount] });

    const samPage = await session.newPage();
    await signInInBrowser(samPage, app.baseUrl, 'sam@example.com', sam.password);
    await samPage.getByTestId('nav-webhooks').click();
    await openRow(SAMS_URL, samPage);
    const view = dialog(samPage);
    await expect(view.getByTestId('webhook-owned-by-another').count()).resolves.toBe(0);
    const only = source(0, samPage);
    // The filters name their fields once the type's fields have loaded.
    await only.locator('[data-testid=record-filter][data-field-name="Stage"]').waitFor();
    await expect(filterRow(only, 0).getAttribute('data-field-name')).resolves.toBe('Stage');
    await expect(filterRow(only, 1).getAttribute('data-hidden')).resolves.toBe('true');
    await expect(filterRow(only, 1).textContent()).resolves.toContain('A filter on a field you cannot see');
    await expect(only.getByTestId('record-changed-hidden').textContent()).resolves.toContain(
      'A field you cannot see',
    );
    // Neither its name nor its value, anywhere on the page (text, HTML, field values, options).
    await expect(view.textContent()).resolves.not.toContain('Amount');
    await expect(pageHolds(samPage, String(SECRET_AMOUNT))).resolves.toBe(false);
    await expect(pageHolds(samPage, 'Amount')).resolves.toBe(false);
    await expect(changedField(only, 'Amount').count()).resolves.toBe(0);
    await screenshot(samPage, 'record-sources-04-hidden-field');

    // An edit elsewhere keeps the source as it is.
    await view.getByTestId('webhook-description').fill('Won deals (Sam)');
    const described = nextWrite(samPage);
    await view.getByTestId('webhook-save').click();
    expect((await described).postDataJSON()).toEqual({ description: 'Won deals (Sam)' });
    await view.waitFor({ state: 'detached' });
    expect((await restRead(SAMS_URL)).recordTrigger).toEqual(trigger);

    // Changing the source sends it whole: the server refuses the hidden filter and changed field
    // for Sam's access, and the dialog shows it beside them, still without naming the field.
    await openRow(SAMS_URL, samPage);
    await source(0, samPage).getByTestId('record-source-search').fill('acme');
    const refusedWrite = nextWrite(samPage);
    await view.getByTestId('webhook-save').click();
    await refusedWrite;
    await filterRow(source(0, samPage), 1).getByTestId('record-source-issue').waitFor();
    await expect(
      filterRow(source(0, samPage), 1).getByTestId('record-source-issue').textContent(),
    ).resolves.toBe('Refused for a field you cannot see: remove it to save a change to this source.');
    await expect(
      source(0, samPage).getByTestId('record-changed-hidden').getByTestId('record-source-issue').count(),
    ).resolves.toBe(1);
    await expect(view.getByTestId('error-message').textContent()).resolves.toContain('record settings');
    await expect(pageHolds(samPage, 'Amount')).resolves.toBe(false);
    await screenshot(samPage, 'record-sources-05-refused-beside-the-field');
    expect((await restRead(SAMS_URL)).recordTrigger).toEqual(trigger);

    // Removing them, the change goes through.
    await filterRow(source(0, samPage), 1).getByTestId('record-filter-remove').click();
    await source(0, samPage).getByTestId('record-changed-hidden-remove').click();
    const saved = nextWrite(samPage);
    await view.getByTestId('webhook-save').click();
    await saved;
    await view.waitFor({ state: 'detached' });
    expect((await restRead(SAMS_URL)).recordTrigger).toEqual({
      query: { typeId: deals.id, search: 'acme', filters: [trigger.query.filters[0]] },
    });
    await samPage.context().close();
  });

  it('a member whose role hides Amount opens an Admin’s webhook: its filter reads masked, in the dialog and in every answer, and a description edit keeps it', async () => {
    const amount = fieldId(deals, 'Amount');
    const role = await appFetch(page, 'POST', '/app/api/roles', {
      name: 'Analysts',
      apiRead: 'all',
      apiCreate: true,
      apiEdit: true,
      restrictedFieldIds: [amount],
    });
    const mia = await invitedMemberFromPage(page, app.baseUrl, {
      email: 'mia@example.com',
      name: 'Mia Analyst',
      roleId: role.id,
    });
    const trigger = {
      query: {
        typeId: deals.id,
        filters: [
          { fieldId: fieldId(deals, 'Stage'), op: 'eq', value: 'Won' },
          { fieldId: amount, op: 'gt', value: SECRET_AMOUNT },
        ],
      },
      changedFieldIds: [amount, fieldId(deals, 'Stage')],
    };
    await appFetch(page, 'POST', '/app/api/webhooks', {
      url: ADMINS_URL,
      events: ['record.updated'],
      recordTrigger: trigger,
    });

    const miaPage = await session.newPage();
    // Every answer of the webhook routes the page reads, as the browser received it.
    const answers: Promise<string>[] = [];
    miaPage.on('response', (response) => {
      if (response.url().includes('/app/api/webhooks')) answers.push(response.text().catch(() => ''));
    });
    await signInInBrowser(miaPage, app.baseUrl, 'mia@example.com', mia.password);
    await miaPage.getByTestId('nav-webhooks').click();
    await openRow(ADMINS_URL, miaPage);
    const view = dialog(miaPage);
    await view.getByTestId('webhook-owned-by-another').waitFor();
    const only = source(0, miaPage);
    await only.locator('[data-testid=record-filter][data-field-name="Stage"]').waitFor();
    await expect(filterRow(only, 0).getAttribute('data-field-name')).resolves.toBe('Stage');
    await expect(filterRow(only, 1).getAttribute('data-hidden')).resolves.toBe('true');
    await expect(filterRow(only, 1).getByTestId('record-filter-mask').textContent()).resolves.toBe(
      'is greater than ********',
    );
    await expect(only.getByTestId('record-changed-mask').textContent()).resolves.toBe('********');
    await expect(changedField(only, 'Stage').isChecked()).resolves.toBe(true);
    await expect(pageHolds(miaPage, String(SECRET_AMOUNT))).resolves.toBe(false);
    await expect(pageHolds(miaPage, 'Amount')).resolves.toBe(false);
    await screenshot(miaPage, 'record-sources-06-masked-for-a-reader');

    await view.getByTestId('webhook-description').fill('Won deals to the ERP');
    const described = nextWrite(miaPage);
    await view.getByTestId('webhook-save').click();
    expect((await described).postDataJSON()).toEqual({ description: 'Won deals to the ERP' });
    await view.waitFor({ state: 'detached' });
    const saved = await restRead(ADMINS_URL);
    expect(saved.recordTrigger).toEqual(trigger);
    // Not in the page, and not in anything the server answered it either (list, webhook, saved view).
    const received = await Promise.all(answers);
    expect(received.length).toBeGreaterThanOrEqual(2);
    expect(received.some((text) => text.includes(ADMINS_URL))).toBe(true);
    expect(received.filter((text) => text.includes(String(SECRET_AMOUNT)))).toEqual([]);
    await miaPage.context().close();
  });
});
