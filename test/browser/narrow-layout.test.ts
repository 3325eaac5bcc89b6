import type { Locator, Page } from 'playwright-core';
import { appFetch, screenshot, signUpInBrowser, useBrowserSession } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';

/**
 * The web app on a phone (390 × 844, the narrowest screen it supports): no page scrolls sideways
 * at the document level, the navigation folds behind a Menu button and still reaches every page,
 * dialogs fit the screen and long URLs break mid-word instead of widening the page. Tables may
 * scroll inside their own container, and a list's table shows one card per row, each value beside its
 * column's heading. BROWSER_SHOTS=/some/dir saves a screenshot of each page.
 */

const PHONE = { width: 390, height: 844 };
const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
/** One unbroken word of ~230 characters: only a mid-word break keeps it inside 390 px. */
const LONG_URL = `https://hooks.example.com/${'averyveryverylongpathsegment'.repeat(6)}?token=${'x'.repeat(40)}`;
const LONG_KEY_NAME = `Reporting-${'k'.repeat(120)}`;

/** How far the document scrolls sideways (0 when it fits the window). */
const horizontalOverflow = (page: Page) =>
  page.evaluate('document.scrollingElement.scrollWidth - window.innerWidth') as Promise<number>;

/** A dialog fits: inside the screen, and nothing in it sticks out sideways. */
async function expectDialogFits(dialog: Locator): Promise<void> {
  await expectWithinScreen(dialog);
  const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function expectWithinScreen(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}

describe('web app: a 390 px wide screen', () => {
  const session = useBrowserSession({ context: { viewport: PHONE, locale: 'en-US' } });
  let app: TestApp;
  let page: Page;

  beforeAll(async () => {
    ({ app, page } = session);
    await signUpInBrowser(page, app.baseUrl, { ...admin, workspace: 'Analytical Engines' });
    // Content that tends to widen a page: a long URL (webhook, deliveries, an endpoint's reason) and a long key name.
    const webhook = await appFetch(page, 'POST', '/app/api/webhooks', {
      url: LONG_URL,
      events: ['record.created'],
    });
    const workspaceId = (await appFetch(page, 'GET', '/app/api/session')).workspace.id as string;
    await app.dataSource.query(
      `INSERT INTO endpoint_states (webhook_id, workspace_id, state, reason, since, failures_in_a_row, updated_at)
       VALUES ($1, $2, 'failing', $3, now(), 3, now())`,
      [webhook.id, workspaceId, `No response: getaddrinfo ENOTFOUND ${LONG_URL}`],
    );
    const model = await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' });
    const name = model.type.fields.find((field: { name: string }) => field.name === 'Name').id as string;
    await appFetch(page, 'POST', '/app/api/records/deal', { values: { [name]: 'Compiler deal' } });
    await appFetch(page, 'POST', '/app/api/api-keys', { name: LONG_KEY_NAME });
  });

  const pages = [
    ['Dashboard', '/', 'dashboard'],
    ['Webhooks', '/webhooks', 'webhook-row'],
    ['Deliveries', '/deliveries', 'delivery-row'],
    ['API keys', '/settings/api-keys', 'api-key-card'],
    ['Account', '/settings/account', 'account-page'],
    ['Records', '/records', 'records-page'],
    ['Members', '/settings/members', 'member-row'],
    ['Roles', '/settings/roles', 'roles-page'],
    ['API reference', '/api-reference', 'api-operation'],
  ] as const;

  it.each(pages)('%s does not scroll sideways', async (name, path, ready) => {
    await page.goto(`${app.baseUrl}${path}`);
    await page.getByTestId(ready).first().waitFor();
    await screenshot(page, `narrow-${name.toLowerCase().replace(/ /g, '-')}`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  it('folds the navigation behind the Menu button, which reaches every page and folds it again', async () => {
    await page.goto(`${app.baseUrl}/`);
    await page.getByTestId('dashboard').waitFor();
    const toggle = page.getByTestId('nav-toggle');
    await expect(toggle.isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('nav-webhooks').isVisible()).resolves.toBe(false);
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');

    for (const [link, ready] of [
      ['nav-webhooks', 'webhook-row'],
      ['nav-deliveries', 'delivery-row'],
      ['nav-api-keys', 'api-key-card'],
      ['nav-account', 'account-page'],
    ] as const) {
      await toggle.click();
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
      await expectWithinScreen(page.getByTestId(link));
      await page.getByTestId(link).click();
      await page.getByTestId(ready).first().waitFor();
      await expect(page.getByTestId(link).isVisible()).resolves.toBe(false);
    }
    // The header's own controls fit too.
    for (const control of ['workspace-switcher', 'current-user', 'sign-out', 'nav-toggle']) {
      await expectWithinScreen(page.getByTestId(control));
    }
  });

  it('dialogs fit the screen, and a long URL breaks mid-word inside them', async () => {
    await page.goto(`${app.baseUrl}/webhooks`);
    await page.getByTestId('webhook-row').first().waitFor();
    await page.getByTestId('webhook-add').click();
    const webhookDialog = page.getByTestId('webhook-dialog');
    await webhookDialog.waitFor();
    await screenshot(page, 'narrow-webhook-dialog', { fullPage: false });
    await expectDialogFits(webhookDialog);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await webhookDialog.getByTestId('dialog-close').click();

    // The Health dialog with a failing endpoint whose reason holds the long URL.
    // The table scrolls sideways to its ⋯ first, as a person's thumb would: scrolling closes an open menu.
    const menu = page.getByTestId('webhook-row').first().getByTestId('webhook-menu');
    await menu.scrollIntoViewIfNeeded();
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await menu.click();
    await page.getByTestId('webhook-show-health').click();
    const healthDialog = page.getByTestId('webhook-health-dialog');
    await healthDialog.getByTestId('health-endpoint-reason').waitFor();
    await screenshot(page, 'narrow-webhook-health', { fullPage: false });
    await expectDialogFits(healthDialog);
    await expectWithinScreen(healthDialog.getByTestId('health-endpoint-reason'));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await healthDialog.getByTestId('dialog-close').click();

    await page.goto(`${app.baseUrl}/deliveries`);
    await page.getByTestId('delivery-row').first().click();
    const details = page.getByTestId('event-details');
    await details.waitFor();
    await screenshot(page, 'narrow-event-details', { fullPage: false });
    await expectDialogFits(details);
    await expectWithinScreen(details.getByText(LONG_URL).first());
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await details.getByTestId('dialog-close').click();

    await page.goto(`${app.baseUrl}/settings/api-keys`);
    await page.getByTestId('add-api-key').click();
    await expectWithinScreen(page.locator('.menu'));
    await page.getByTestId('add-standard-key').click();
    const keyDialog = page.getByTestId('standard-key-dialog');
    await expectDialogFits(keyDialog);
    await expectWithinScreen(keyDialog.getByTestId('key-create-submit'));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  const tables = [
    ['Webhooks', '/webhooks', 'webhook-row', ['Description', 'Events', 'Status', 'Created at', 'Updated at']],
    [
      'Deliveries',
      '/deliveries',
      'delivery-row',
      ['Event', 'Element', 'Status', 'Status Code', 'Created at'],
    ],
    ['Members', '/settings/members', 'member-row', ['Email', 'Role', 'Status', 'Added']],
    ['Records', '/records?type=deal', 'record-row', ['Updated']],
    [
      'Roles',
      '/settings/roles',
      'role-row',
      ['Members', 'API read', 'API create', 'API edit', 'API delete', 'Records'],
    ],
  ] as const;

  it.each(tables)(
    'shows the %s table as cards: no header row, each value labelled',
    async (name, path, row, labels) => {
      await page.goto(`${app.baseUrl}${path}`);
      const card = page.getByTestId(row).first();
      await card.waitFor();
      await screenshot(page, `narrow-cards-${name.toLowerCase()}`, { fullPage: false });
      const table = page.locator('table', { has: card });
      await expect(table.locator('thead').isVisible()).resolves.toBe(false);
      await expect(
        card.evaluate((element: any) => element.ownerDocument.defaultView.getComputedStyle(element).display),
      ).resolves.toBe('block');
      await expectWithinScreen(card);
      // Nothing in the card sticks out sideways, and its frame does not scroll sideways either.
      await expect(
        card.evaluate((element) => element.scrollWidth - element.clientWidth),
      ).resolves.toBeLessThanOrEqual(0);
      await expect(
        page
          .locator('.table-wrap', { has: card })
          .evaluate((element) => element.scrollWidth - element.clientWidth),
      ).resolves.toBeLessThanOrEqual(0);
      // The headings are shown beside the values, read from the column headings.
      const shown = await card
        .locator('td')
        .evaluateAll((cells: any[]) =>
          cells.map((cell) => cell.ownerDocument.defaultView.getComputedStyle(cell, '::before').content),
        );
      for (const label of labels) expect(shown).toContain(`"${label}"`);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    },
  );

  it('shows a retrying delivery’s card as Failed, retrying at its next attempt, and Event Details the same', async () => {
    const workspaceId = (await appFetch(page, 'GET', '/app/api/session')).workspace.id as string;
    const [webhook] = (await appFetch(page, 'GET', '/app/api/webhooks')).data;
    const [row] = await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
         response_message, attempts, next_attempt_at, workflow_started_at)
       VALUES ($1, $2, gen_random_uuid(), 'record.created', $3, 'event', 'failed', 503, 'Service Unavailable',
         3, now() + interval '40 seconds', now())
       RETURNING id`,
      [workspaceId, webhook.id, LONG_URL],
    );
    await app.dataSource.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code, response_message, outcome)
       VALUES ($1, 1, 1, now() - interval '70 seconds', 5000, $2, NULL, 'Timed out: no response within 5 s', 'retry'),
              ($1, 2, 1, now() - interval '50 seconds', 12, $2, 503, $3, 'retry')`,
      [row.id, LONG_URL, `Service Unavailable: ${LONG_URL}`],
    );
    await page.goto(`${app.baseUrl}/deliveries?status=failed&state=retrying`);
    const card = page.locator(`[data-testid=delivery-row][data-delivery-id="${row.id}"]`);
    await card.waitFor();
    const status = card.getByTestId('delivery-status-line');
    await expect(status.textContent()).resolves.toMatch(
      /^Failed · retrying at \d{2}:\d{2}:\d{2}( [AP]M)? (UTC|GMT[+-][\d:]+|[A-Z]{3,5})$/,
    );
    await expect(
      status.evaluate((element: any) => element.closest('td').getAttribute('data-label')),
    ).resolves.toBe('Status');
    await expectWithinScreen(status);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'narrow-cards-retrying-delivery', { fullPage: false });

    await card.getByTestId('delivery-open').click();
    const details = page.getByTestId('event-details');
    await details.getByTestId('delivery-retrying-notice').waitFor();
    await expect(
      details.getByTestId('delivery-facts').getByTestId('delivery-status-line').textContent(),
    ).resolves.toBe(await status.textContent());
    await expectDialogFits(details);

    // Its attempts as cards (issue 37, item 6): each value beside its heading, none cut at 390 px.
    const attempts = details.getByTestId('delivery-attempt');
    await expect(attempts.count()).resolves.toBe(2);
    const history = details.getByTestId('delivery-attempt-history');
    await expect(
      history.evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth),
    ).resolves.toBeLessThanOrEqual(0);
    for (const attempt of await attempts.all()) {
      for (const cell of await attempt.locator('td').all()) await expectWithinScreen(cell);
    }
    const second = attempts.nth(1);
    await expect(second.locator('td').first().innerText()).resolves.toBe('Attempt 2');
    const labelled = async (label: string) => second.locator(`td[data-label="${label}"]`).innerText();
    await expect(labelled('Status code')).resolves.toBe('503');
    await expect(labelled('Outcome')).resolves.toBe('Will retry');
    await expect(labelled('Time')).resolves.toMatch(/\d{2}:\d{2}:\d{2}/);
    await expect(labelled('Message')).resolves.toContain('Service Unavailable');
    const exchange = details.getByTestId('attempt-exchange').nth(1);
    await exchange.locator('summary').click();
    await expectWithinScreen(exchange);
    await expectDialogFits(details);
    await screenshot(page, 'narrow-event-details-attempts', { fullPage: false });
    await details.getByTestId('dialog-close').click();
  });

  it('shows API keys as cards too', async () => {
    await page.goto(`${app.baseUrl}/settings/api-keys`);
    const card = page.getByTestId('api-key-card').first();
    await card.waitFor();
    await expect(card.evaluate((element: any) => element.tagName)).resolves.toBe('LI');
    await expectWithinScreen(card);
  });

  it('breaks the long URL in the webhooks list mid-word: its cell stays narrower than the screen', async () => {
    await page.goto(`${app.baseUrl}/webhooks`);
    const url = page.getByTestId('webhook-row').first().getByTestId('webhook-open');
    await expect(url.textContent()).resolves.toBe(LONG_URL);
    const box = await url.boundingBox();
    expect(box!.width).toBeLessThan(PHONE.width);
    // Wrapped onto several lines, not cut off.
    expect(box!.height).toBeGreaterThan(40);
    // So is the failing endpoint's reason under the status, which holds it too.
    const reason = page.getByTestId('webhook-row').first().getByTestId('webhook-endpoint-reason');
    await expect(reason.textContent()).resolves.toContain(LONG_URL);
    const reasonBox = await reason.boundingBox();
    expect(reasonBox!.width).toBeLessThan(PHONE.width);
    expect(reasonBox!.height).toBeGreaterThan(40);
  });
});
