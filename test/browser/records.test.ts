import type { BrowserContext, Page, Request } from 'playwright-core';
import { byField, eventually, screenshot, useBrowserSession } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';

/**
 * The Records page in a real headless Chromium against the real API (docs/app-api.md, "Records
 * and the record model"): a person causes every record event by hand (created, updated, deleted,
 * restored, deletedPermanently), and the database holds exactly those events. The steps build on
 * each other, in order. BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };

describe('web app: records in a browser', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  let dealId = '';

  const dialog = () => page.getByTestId('record-dialog');
  const fieldValue = (name: string) =>
    byField(dialog(), 'record-field', name).getByTestId('record-field-value');
  const input = (name: string) => byField(page, 'record-input', name);
  const row = (title: string) => page.locator(`[data-testid=record-row][data-title="${title}"]`);

  async function chooseType(name: string): Promise<void> {
    await page.getByTestId('record-type').selectOption({ label: name });
    await eventually(
      async () => (await page.getByTestId('record-type').locator('option:checked').textContent()) === name,
      `${name} is chosen`,
    );
    await page.locator('[data-testid=records-table], [data-testid=records-empty]').first().waitFor();
  }

  async function showView(view: 'active' | 'trash'): Promise<void> {
    await page.getByTestId(`records-view-${view}`).click();
    await page
      .locator(`[data-testid=records-table][data-view=${view === 'trash' ? 'trashed' : 'active'}]`)
      .or(page.getByTestId('records-empty'))
      .first()
      .waitFor();
  }

  /** The body of the next request of this method to the records routes, once sent. */
  function nextWrite(method: string): Promise<Request> {
    return page.waitForRequest(
      (request) => request.method() === method && request.url().includes('/app/api/records/'),
    );
  }

  async function events(recordId: string): Promise<string[]> {
    const rows: { event: string }[] = await app.dataSource.query(
      'SELECT event FROM record_events WHERE record_id = $1 ORDER BY occurred_at',
      [recordId],
    );
    return rows.map((item) => item.event);
  }

  beforeAll(() => {
    ({ app, context, page } = session);
  });

  it('offers Records in the navigation and lists the record types the person can read', async () => {
    await page.getByTestId('nav-records').click();
    await page.waitForURL(/\/records/);
    await page.getByTestId('record-type').waitFor();
    const types = await page.getByTestId('record-type').locator('option').allTextContents();
    expect(types).toEqual(
      expect.arrayContaining(['Contacts', 'Organizations', 'Deals', 'Services', 'Tasks']),
    );
    await chooseType('Deals');
    await page.getByTestId('records-empty').waitFor();
    await screenshot(page, '01-records-empty');
  });

  it('creates a deal with a name, amount, probability and stage; the formula Weighted amount is computed', async () => {
    await page.getByTestId('record-create').click();
    await page.getByTestId('record-create-dialog').waitFor();
    // Formula fields are computed, not typed in.
    await expect(input('Weighted amount').count()).resolves.toBe(0);
    await byField(page, 'record-input-formula', 'Weighted amount').waitFor();
    await input('Name').fill('Big deal');
    await input('Amount').fill('10000');
    await input('Probability').fill('40');
    await input('Stage').selectOption('Qualified');
    await screenshot(page, '02-create-deal');
    const created = nextWrite('POST');
    await page.getByTestId('record-save').click();
    const body = (await created).postDataJSON() as { values: Record<string, unknown> };
    // Only the fields the person filled in.
    expect(Object.values(body.values).sort()).toEqual([10000, 40, 'Big deal', 'Qualified'].sort());

    await dialog().waitFor();
    await expect(fieldValue('Weighted amount').textContent()).resolves.toBe('4,000');
    await dialog().getByTestId('dialog-close').click();
    await dialog().waitFor({ state: 'detached' });

    // Listed, then opened from the list.
    await row('Big deal').waitFor();
    dealId = (await row('Big deal').getAttribute('data-record-id')) ?? '';
    expect(dealId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(row('Big deal').getByTestId('record-cell').allTextContents()).resolves.toEqual([
      'Big deal',
      '10,000',
      '40',
      'Qualified',
    ]);
    await row('Big deal').getByTestId('record-open').click();
    await dialog().waitFor();
    await expect(fieldValue('Name').textContent()).resolves.toBe('Big deal');
    await expect(fieldValue('Amount').textContent()).resolves.toBe('10,000');
    await expect(fieldValue('Stage').textContent()).resolves.toBe('Qualified');
    await expect(fieldValue('Weighted amount').textContent()).resolves.toBe('4,000');
    await expect(fieldValue('Weighted amount').getAttribute('data-state')).resolves.toBe('value');
    // Missing values are an em dash, not zero.
    await expect(fieldValue('Close date').textContent()).resolves.toBe('—');
    await expect(fieldValue('Close date').getAttribute('data-state')).resolves.toBe('missing');
    await screenshot(page, '03-deal-open');
  });

  it('edits the amount: only that field is sent, and the new values are shown', async () => {
    await dialog().getByTestId('record-edit').click();
    await page.getByTestId('record-edit-dialog').waitFor();
    await expect(input('Amount').inputValue()).resolves.toBe('10000');
    await input('Amount').fill('25000');
    await screenshot(page, '04-edit-deal');
    const updated = nextWrite('PATCH');
    await page.getByTestId('record-save').click();
    const change = (await updated).postDataJSON() as { values: Record<string, unknown> };
    expect(Object.keys(change)).toEqual(['values']);
    expect(Object.values(change.values)).toEqual([25000]);

    await dialog().waitFor();
    await eventually(
      async () => (await fieldValue('Amount').textContent()) === '25,000',
      'the new amount shows',
    );
    await expect(fieldValue('Weighted amount').textContent()).resolves.toBe('10,000');
    await dialog().getByTestId('dialog-close').click();
    await expect(row('Big deal').getByTestId('record-cell').nth(1).textContent()).resolves.toBe('25,000');
  });

  it('moves the deal to the Trash, finds it there, restores it, trashes it again and deletes it permanently', async () => {
    await row('Big deal').getByTestId('record-open').click();
    await dialog().getByTestId('record-trash').click();
    await dialog().waitFor({ state: 'detached' });
    await row('Big deal').waitFor({ state: 'detached' });
    await expect(page.getByTestId('records-notice').textContent()).resolves.toContain('moved to the Trash');

    await showView('trash');
    await row('Big deal').waitFor();
    await screenshot(page, '05-trash');
    await row('Big deal').getByTestId('record-open').click();
    await dialog().getByTestId('record-trashed-notice').waitFor();
    // Trashed records are not edited, and Delete permanently exists only here.
    await expect(dialog().getByTestId('record-edit').count()).resolves.toBe(0);
    await dialog().getByTestId('record-restore').click();
    await dialog().waitFor({ state: 'detached' });
    await row('Big deal').waitFor({ state: 'detached' });

    await showView('active');
    await row('Big deal').waitFor();
    await row('Big deal').getByTestId('record-open').click();
    await expect(dialog().getByTestId('record-delete').count()).resolves.toBe(0);
    await dialog().getByTestId('record-trash').click();
    await row('Big deal').waitFor({ state: 'detached' });

    await showView('trash');
    await row('Big deal').getByTestId('record-open').click();
    await dialog().getByTestId('record-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, '06-confirm-delete');
    // Cancel first: back to the record, nothing erased.
    await page.getByTestId('confirm-cancel').click();
    await dialog().getByTestId('record-delete').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    await row('Big deal').waitFor({ state: 'detached' });
    await expect(page.getByTestId('records-notice').textContent()).resolves.toContain('deleted permanently');

    // Gone after a reload too, from the Trash and from the list.
    await page.reload();
    await page.getByTestId('records-empty').waitFor();
    await showView('active');
    await expect(row('Big deal').count()).resolves.toBe(0);
  });

  it('the database holds exactly the events caused by hand, in order', async () => {
    expect(await events(dealId)).toEqual([
      'record.created',
      'record.updated',
      'record.deleted',
      'record.restored',
      'record.deleted',
      'record.deletedPermanently',
    ]);
  });

  it('links a deal to an organization, clears a field with null, and shows refusals from the server', async () => {
    await chooseType('Organizations');
    await page.getByTestId('record-create').click();
    await input('Name').fill('Acme');
    await input('Website').fill('https://acme.example');
    await page.getByTestId('record-save').click();
    await dialog().waitFor();
    await expect(fieldValue('Website').textContent()).resolves.toBe('https://acme.example');
    await dialog().getByTestId('dialog-close').click();

    await chooseType('Deals');
    await page.getByTestId('record-create').click();
    await input('Name').fill('Small deal');
    await input('Amount').fill('500');
    await input('Close date').fill('2026-03-31');
    const acme = byField(page, 'record-link-field', 'Organization').getByLabel('Acme');
    await acme.check();
    const created = nextWrite('POST');
    await page.getByTestId('record-save').click();
    const body = (await created).postDataJSON() as { links: Record<string, string[]> };
    expect(Object.values(body.links)).toEqual([[await acme.getAttribute('data-record-id')]]);
    await dialog().waitFor();
    await expect(fieldValue('Organization').textContent()).resolves.toBe('Acme');
    await expect(fieldValue('Close date').textContent()).resolves.toBe('Mar 31, 2026');
    // An input of the formula is missing: so is the formula.
    await expect(fieldValue('Weighted amount').getAttribute('data-state')).resolves.toBe('missing');

    // Emptying a field sends null and the value becomes missing.
    await dialog().getByTestId('record-edit').click();
    await input('Close date').fill('');
    const cleared = nextWrite('PATCH');
    await page.getByTestId('record-save').click();
    const clearing = (await cleared).postDataJSON() as { values: Record<string, unknown> };
    expect(Object.keys(clearing)).toEqual(['values']);
    expect(Object.values(clearing.values)).toEqual([null]);
    await eventually(
      async () => (await fieldValue('Close date').getAttribute('data-state')) === 'missing',
      'the close date is missing',
    );
    await dialog().getByTestId('dialog-close').click();

    // A refusal shows the server's message (error.issues[0].message), and the form stays open.
    await chooseType('Contacts');
    await page.getByTestId('record-create').click();
    await input('Name').fill('Nobody');
    await input('Email').fill('not an email');
    await page.getByTestId('record-save').click();
    const refusal = page.getByTestId('record-create-dialog').getByTestId('error-message');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toBe('Email: must be an email address.');
    await screenshot(page, '07-refusal');
    await input('Email').fill('nobody@example.com');
    // Rich text: one paragraph per line. Assignments and identities too.
    await input('Notes').fill('Met at the fair.\nCall back in May.');
    await page.getByTestId('record-create-dialog').getByLabel(admin.name).check();
    await page.getByTestId('record-identity-add').click();
    await page.getByTestId('record-identity-kind').selectOption('phone');
    await page.getByTestId('record-identity-value').fill('+44 20 7946 0000');
    const contactCreated = nextWrite('POST');
    await page.getByTestId('record-save').click();
    const contact = (await contactCreated).postDataJSON() as {
      values: Record<string, unknown>;
      assignments: string[];
      identities: unknown[];
    };
    expect(Object.values(contact.values)).toContainEqual({
      documentJson: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Met at the fair.' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'Call back in May.' }] },
        ],
      },
    });
    expect(contact.assignments).toHaveLength(1);
    expect(contact.identities).toEqual([{ kind: 'phone', value: '+44 20 7946 0000' }]);
    await dialog().waitFor();
    await expect(fieldValue('Email').textContent()).resolves.toBe('nobody@example.com');
    await expect(fieldValue('Notes').innerText()).resolves.toBe('Met at the fair.\nCall back in May.');
    await expect(dialog().getByTestId('record-assignments').textContent()).resolves.toBe(admin.name);
    await expect(dialog().getByTestId('record-identities').textContent()).resolves.toContain(
      '+44 20 7946 0000',
    );
    await screenshot(page, '08-contact');
    await dialog().getByTestId('dialog-close').click();
  });

  it('searches the list and pages through it with Load more', async () => {
    await chooseType('Services');
    // 30 services over the API of the web app (same session), newest first in the list.
    const cookies = await context.cookies();
    const cookie = cookies.map((item) => `${item.name}=${item.value}`).join('; ');
    const typeId = await page.getByTestId('record-type').inputValue();
    const read = await fetch(`${app.baseUrl}/app/api/model/read`, {
      method: 'POST',
      headers: { cookie, origin: app.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ type: typeId }),
    });
    const nameId = ((await read.json()) as any).type.fields.find((field: any) => field.name === 'Name').id;
    for (let index = 1; index <= 30; index += 1) {
      const response = await fetch(`${app.baseUrl}/app/api/records/${typeId}`, {
        method: 'POST',
        headers: { cookie, origin: app.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ values: { [nameId]: `Service ${String(index).padStart(2, '0')}` } }),
      });
      expect(response.status).toBe(201);
    }
    await page.reload();
    await page.getByTestId('records-table').waitFor();
    await expect(page.getByTestId('record-row').count()).resolves.toBe(25);
    await page.getByTestId('records-load-more').click();
    await eventually(async () => (await page.getByTestId('record-row').count()) === 30, 'all 30 are listed');
    await expect(page.getByTestId('records-load-more').count()).resolves.toBe(0);
    await screenshot(page, '09-list');

    await page.getByTestId('records-search').fill('service 07');
    await eventually(async () => (await page.getByTestId('record-row').count()) === 1, 'one matches');
    await row('Service 07').waitFor();
    await page.getByTestId('records-search').fill('no such thing');
    await page.getByTestId('records-empty').waitFor();
    await screenshot(page, '10-search');
  });
});
