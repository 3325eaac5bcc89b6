import type { Page } from 'playwright-core';
import { DELIVERED_EVENTS } from '../../src/shared/events/event-catalog';
import { EVENT_DESCRIPTIONS } from '../../src/shared/events/event-catalog-descriptions';
import { appFetch, eventually, screenshot, useBrowserSession } from '../helpers/browser';
import { importLegacyWebhook } from '../helpers/legacy-import';
import type { TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * The event catalog in the web app, in a real headless Chromium (issue 27, item 5): the webhook
 * dialog shows what each event announces and a sample of the body a receiver gets (the OpenAPI
 * document's example, which the server builds), and the Deliveries page's event filter offers a
 * retired (legacy) event only where this workspace has it — never another workspace's.
 * BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const LEGACY_URL = 'https://old.example.com/hook';

describe('web app: the event catalog in a browser', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;

  const dialog = () => page.getByTestId('webhook-dialog');
  const option = (event: string) =>
    dialog().locator(`[data-testid=webhook-event-option][data-event="${event}"]`);
  const sample = () => dialog().getByTestId('webhook-event-sample');
  const eventFilter = () =>
    page
      .getByTestId('deliveries-event')
      .locator('option')
      .evaluateAll((options) => options.map((item) => item.textContent ?? ''));

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('the webhook dialog shows what each event announces, from the catalog', async () => {
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhook-add').click();
    await dialog().waitFor();
    for (const event of DELIVERED_EVENTS) {
      // The catalog's text, its `code` spans drawn as code.
      await expect(option(event).getByTestId('webhook-event-description').textContent()).resolves.toBe(
        EVENT_DESCRIPTIONS[event].replace(/`/g, ''),
      );
    }
    await expect(option('record.deleted').locator('code', { hasText: 'afterVersion' }).count()).resolves.toBe(
      1,
    );
    // Each description is the checkbox's accessible description.
    const checkbox = dialog().locator('[data-testid=webhook-event][data-event="messaging.chat.deleted"]');
    const describedBy = await checkbox.getAttribute('aria-describedby');
    await expect(page.locator(`[id="${describedBy}"]`).textContent()).resolves.toBe(
      EVENT_DESCRIPTIONS['messaging.chat.deleted'],
    );
  });

  it('Sample shows the body a receiver gets, as the API reference documents it; it selects nothing', async () => {
    const document: any = await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json();
    const exampleOf = (event: string) =>
      document.webhooks[event].post.requestBody.content['application/json'].example;
    const toggle = (event: string) => option(event).getByTestId('webhook-event-sample-toggle');

    await expect(sample().count()).resolves.toBe(0);
    await toggle('record.updated').click();
    await sample().getByTestId('webhook-event-sample-body').waitFor();
    await expect(sample().getAttribute('data-event')).resolves.toBe('record.updated');
    const shown = JSON.parse((await sample().getByTestId('webhook-event-sample-body').textContent()) ?? '');
    expect(shown).toEqual(exampleOf('record.updated'));
    expect(shown).toMatchObject({
      event: 'record.updated',
      data: { record: { beforeVersion: 1, afterVersion: 2, fields: expect.any(Array) } },
    });
    await expect(toggle('record.updated').getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(toggle('record.updated').textContent()).resolves.toBe('Hide sample');
    await expect(sample().textContent()).resolves.toContain(
      EVENT_DESCRIPTIONS['record.updated'].replace(/`/g, ''),
    );
    // Looking at a sample neither checks its event nor saves the dialog.
    await expect(
      dialog().locator('[data-testid=webhook-event][data-event="record.updated"]').isChecked(),
    ).resolves.toBe(false);
    await expect(dialog().isVisible()).resolves.toBe(true);
    await dialog().getByTestId('webhook-url').fill('https://hooks.example.com/crm');
    await dialog().locator('[data-testid=webhook-event][data-event="record.updated"]').check();
    await sample().evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await screenshot(page, '11-webhook-event-sample', { fullPage: false });

    // Another event's Sample replaces it; Hide sample and Close put it away.
    await toggle('messaging.chat.updated').click();
    await eventually(
      async () => (await sample().getAttribute('data-event')) === 'messaging.chat.updated',
      'the chat event’s sample is shown',
    );
    expect(JSON.parse((await sample().getByTestId('webhook-event-sample-body').textContent()) ?? '')).toEqual(
      exampleOf('messaging.chat.updated'),
    );
    await expect(toggle('record.updated').getAttribute('aria-expanded')).resolves.toBe('false');
    await toggle('messaging.chat.updated').click();
    await expect(sample().count()).resolves.toBe(0);
    await toggle('record.created').click();
    await sample().getByTestId('webhook-event-sample-close').click();
    await expect(sample().count()).resolves.toBe(0);
  });

  it('the Deliveries event filter offers the catalog only, while the workspace has no retired event', async () => {
    // Another workspace has legacy webhooks and deliveries: none of its events show here.
    const other = await WebClient.signUp(app.baseUrl, { email: 'other@example.com' });
    await importLegacyWebhook(app.dataSource, other.session.workspace.id, {
      url: 'https://other.example.com/old',
      events: ['contact.updated'],
      deliveredEvents: ['contact.created'],
    });
    await page.goto(`${app.baseUrl}/deliveries`);
    await page.getByTestId('deliveries-page').waitFor();
    await expect(eventFilter()).resolves.toEqual(['All events', ...DELIVERED_EVENTS]);
  });

  it('adds the retired events of this workspace’s imported webhooks and deliveries, marked (legacy)', async () => {
    const { workspace } = await appFetch(page, 'GET', '/app/api/session');
    await importLegacyWebhook(
      app.dataSource,
      workspace.id,
      { url: LEGACY_URL, events: ['task.updated', 'record.created'], deliveredEvents: ['deal.created'] },
      app.config.ENCRYPTION_KEY,
    );
    await page.reload();
    await eventually(
      async () => (await eventFilter()).length === DELIVERED_EVENTS.length + 3,
      'the filter lists the catalog, the operational events and this workspace’s two retired events',
    );
    await expect(eventFilter()).resolves.toEqual([
      'All events',
      ...DELIVERED_EVENTS,
      'deal.created (legacy)',
      'task.updated (legacy)',
    ]);
    await page.getByTestId('deliveries-event').selectOption('deal.created');
    await eventually(
      async () =>
        (await page.getByTestId('delivery-row').count()) === 1 &&
        (await page.getByTestId('delivery-cell-event').first().textContent()) === 'deal.created (legacy)',
      'the legacy delivery is listed',
    );
    await screenshot(page, '24-deliveries-legacy-event-filter', { fullPage: false });
  });
});
