import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expireAttemptDetails } from '../../src/deliveries/log/attempt-details-sweep';
import {
  addWebhookInBrowser,
  appFetch,
  browserToday,
  DELIVERY_TIMEOUT_MS,
  eventually,
  pageHolds,
  screenshot,
  useBrowserSession,
} from '../helpers/browser';
import { Receiver } from '../helpers/receiver';
import type { TestApp } from '../helpers/test-app';

/**
 * The Deliveries page and Event Details in a real headless Chromium against the real API and a
 * real Temporal worker that really POSTs to a receiver on loopback (docs/deliveries.md, "The
 * delivery log"; README.md#using-it): a record write is delivered,
 * the log is reached from the webhook's row menu, Event Details show the payload and the attempt,
 * and Resend sends the same event again. The steps build on each other, in order.
 * BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const TEMPORAL_UI_URL = 'http://127.0.0.1:8233';
const DEAL = 'Compiler deal';
const TEAM_HEADER_VALUE = 'browser-team-secret-55';
const RECEIVER_COOKIE = 'browser-receiver-cookie-77';
/** A retrying delivery's status: "Failed · retrying at 03:13:21 PM UTC" (en-US), its time with seconds and zone. */
const RETRYING_AT_TEXT = String.raw`Failed · retrying at \d{2}:\d{2}:\d{2}( [AP]M)? (UTC|GMT[+-][\d:]+|[A-Z]{3,5})`;
const RETRYING_AT = new RegExp(`^${RETRYING_AT_TEXT}$`);

describe('web app: deliveries in a browser', () => {
  const session = useBrowserSession({
    config: { TEMPORAL_UI_URL },
    worker: true,
    signUp: { ...admin, workspace: 'Analytical Engines' },
  });
  let app: TestApp;
  let page: Page;
  let receiver: Receiver;
  let hookUrl = '';
  let dealId = '';
  let firstDeliveryId = '';

  const rows = () => page.getByTestId('delivery-row');
  const details = () => page.getByTestId('event-details');
  /** What has focus now: its tag, test id and text (the test code has no DOM types: the page's own). */
  const focused = () =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      return {
        tag: element?.tagName ?? null,
        testId: element?.getAttribute('data-testid') ?? null,
        text: element?.textContent ?? null,
      };
    });
  /** Event Details opened with focus on its title: Enter or Space never resends nor retries. */
  const TITLE_FOCUSED = { tag: 'H2', testId: null, text: 'Event Details' };
  const colourOf = (locator: ReturnType<Page['locator']>) =>
    locator.evaluate((element: any) => {
      const style = element.ownerDocument.defaultView.getComputedStyle(element);
      return `${style.color} on ${style.backgroundColor}`;
    });
  /** The list (of the filters asked now, not an older answer) holds one delivery, to `url`. */
  const listedOnly = async (url: string) =>
    (await page.locator('.table-wrap.is-stale').count()) === 0 &&
    (await rows().count()) === 1 &&
    (await rows().first().getByTestId('delivery-open').textContent()) === url;

  beforeAll(() => {
    ({ app, page } = session);
  });

  beforeAll(async () => {
    receiver = await new Receiver().start();
    hookUrl = `${receiver.url}/hooks/crm`;
    receiver.replies('/hooks/crm', { status: 200, headers: { 'Set-Cookie': `sid=${RECEIVER_COOKIE}` } });
  });

  afterAll(async () => {
    await receiver?.stop();
  });

  it('adds a webhook to a receiver on loopback; creating a deal delivers record.created to it', async () => {
    await addWebhookInBrowser(page, hookUrl, ['record.created']);
    // A secret and a custom header, so Event Details has something to mask.
    const [added] = (await appFetch(page, 'GET', '/app/api/webhooks')).data;
    await appFetch(page, 'PATCH', `/app/api/webhooks/${added.id}`, {
      secret: 'browser-signing-secret',
      headers: { 'X-Team': TEAM_HEADER_VALUE },
    });

    const model = await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' });
    const name = model.type.fields.find((field: { name: string }) => field.name === 'Name').id as string;
    const deal = await appFetch(page, 'POST', '/app/api/records/deal', { values: { [name]: DEAL } });
    dealId = deal.id;

    await eventually(
      async () => receiver.received.length === 1,
      'the receiver got the delivery',
      DELIVERY_TIMEOUT_MS,
    );
    const [received] = receiver.received;
    expect(received!.json).toMatchObject({
      event: 'record.created',
      data: { record: { ref: { recordId: dealId } } },
    });
  });

  it('Show deliveries in the row menu opens the Deliveries page filtered by the webhook URL', async () => {
    // An old delivery of a retired event, of another URL, that no longer reached anyone.
    const workspace = await appFetch(page, 'GET', '/app/api/session');
    const webhooks = await appFetch(page, 'GET', '/app/api/webhooks');
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, status,
         status_code, response_message, attempts, workflow_started_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'deal.created', 'https://legacy.example.com/old', $4, 'event', 'failed',
         NULL, 'connection refused', 10, now(), now() - interval '1 hour', now() - interval '1 hour')`,
      [
        workspace.workspace.id,
        webhooks.data[0].id,
        randomUUID(),
        JSON.stringify({ typeId: randomUUID(), recordId: randomUUID() }),
      ],
    );

    // A delivery to a longer URL that starts with the webhook's: Show deliveries matches exactly.
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status,
         status_code, response_message, attempts, workflow_started_at)
       VALUES ($1, $2, $3, 'record.restored', $4, 'event', 'delivered', 200, 'OK', 1, now())`,
      [workspace.workspace.id, webhooks.data[0].id, randomUUID(), `${hookUrl}/v2`],
    );

    const row = page.locator(`[data-testid=webhook-row][data-url="${hookUrl}"]`);
    await row.getByTestId('webhook-menu').click();
    await screenshot(page, '21-row-menu');
    await row.getByTestId('webhook-show-deliveries').click();
    await page.waitForURL(`${app.baseUrl}/deliveries?url=${encodeURIComponent(hookUrl)}`);
    await page.getByTestId('deliveries-page').waitFor();
    await expect(page.getByTestId('deliveries-url').inputValue()).resolves.toBe(hookUrl);

    await eventually(
      async () =>
        (await rows().count()) === 1 &&
        (await rows().first().getAttribute('data-status')) === 'delivered' &&
        (await rows().first().getByTestId('delivery-open').textContent()) === hookUrl,
      'the delivery to exactly that URL is listed as Delivered',
      DELIVERY_TIMEOUT_MS,
    );
    const delivery = rows().first();
    firstDeliveryId = (await delivery.getAttribute('data-delivery-id')) ?? '';
    await expect(delivery.getByTestId('delivery-open').textContent()).resolves.toBe(hookUrl);
    await expect(delivery.getByTestId('delivery-cell-event').textContent()).resolves.toBe('record.created');
    await expect(delivery.getByTestId('delivery-status').textContent()).resolves.toBe('Delivered');
    await expect(delivery.getByTestId('delivery-cell-status-code').textContent()).resolves.toBe('200');
    await expect(delivery.getByTestId('delivery-cell-element').textContent()).resolves.toContain('Deals');
    await expect(delivery.getByTestId('element-record-id').textContent()).resolves.toBe(dealId);
    await delivery.getByTestId('delivery-created-at').waitFor();
    await expect(page.locator('.deliveries-table th').allTextContents()).resolves.toEqual([
      'URL',
      'Event',
      'Element',
      'Status',
      'Status Code',
      'Created at',
    ]);
    await screenshot(page, '22-deliveries-filtered');
  });

  it('filters by event, URL and creation date on the server, and searches event and URL', async () => {
    await page.getByTestId('deliveries-clear-filters').click();
    await eventually(async () => (await rows().count()) === 3, 'every delivery is listed');
    await expect(page.getByTestId('deliveries-total').textContent()).resolves.toBe('3 deliveries');
    // The retired event carries its (legacy) marker; no response: the list's Status Code cell is
    // empty (docs/deliveries.md#the-delivery-log; Event Details shows a dash).
    const legacy = page.locator('[data-testid=delivery-row]', { hasText: 'deal.created' });
    await expect(legacy.getByTestId('delivery-cell-event').textContent()).resolves.toBe(
      'deal.created (legacy)',
    );
    await expect(legacy.getByTestId('delivery-cell-status-code').textContent()).resolves.toBe('');
    await expect(legacy.getByTestId('delivery-status').textContent()).resolves.toBe('Failed');
    await screenshot(page, '23-deliveries-all');

    await page.getByTestId('deliveries-status').selectOption('failed');
    await eventually(
      async () =>
        (await rows().count()) === 1 && (await rows().first().getAttribute('data-status')) === 'failed',
      'only the Failed delivery is listed',
    );
    // The filters live in the page's address: a reload shows the same rows.
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    await page.reload();
    await eventually(
      async () =>
        (await rows().count()) === 1 && (await rows().first().getAttribute('data-status')) === 'failed',
      'the reloaded page keeps the status filter',
    );
    await expect(page.getByTestId('deliveries-status').inputValue()).resolves.toBe('failed');
    await page.getByTestId('deliveries-status').selectOption('');

    await page.getByTestId('deliveries-event').selectOption('record.updated');
    await page.getByTestId('deliveries-empty').waitFor();
    await page.getByTestId('deliveries-event').selectOption('deal.created');
    await eventually(async () => (await rows().count()) === 1, 'only the legacy delivery is listed');
    await page.getByTestId('deliveries-event').selectOption('');

    await page.getByTestId('deliveries-search').fill('legacy.example');
    await eventually(
      async () =>
        (await rows().count()) === 1 &&
        (await rows().first().textContent())?.includes('deal.created') === true,
      'the search matches the URL',
    );
    await page.getByTestId('deliveries-search').fill('record.created');
    await eventually(
      async () =>
        (await rows().count()) === 1 &&
        (await rows().first().getAttribute('data-delivery-id')) === firstDeliveryId,
      'the search matches the event',
    );
    await page.getByTestId('deliveries-search').fill('');

    await page.getByTestId('deliveries-created-from').fill(await browserToday(page, 1));
    await page.getByTestId('deliveries-empty').waitFor();
    await page.getByTestId('deliveries-created-from').fill(await browserToday(page));
    await page.getByTestId('deliveries-created-to').fill(await browserToday(page));
    await eventually(async () => (await rows().count()) >= 1, 'today’s deliveries are listed');

    await page.getByTestId('deliveries-clear-filters').click();
    // The URL filter is exact: the receiver's address without the path matches nothing.
    await page.getByTestId('deliveries-url').fill(receiver.url);
    await page.getByTestId('deliveries-empty').waitFor();
    await page.getByTestId('deliveries-url').fill(hookUrl);
    await eventually(async () => (await rows().count()) === 1, 'the URL filter applies again');
  });

  it('Event Details show the delivery, the payload, one attempt with status 200 and the Temporal link', async () => {
    await rows().first().getByTestId('delivery-open').click();
    await details().waitFor();
    await details().getByTestId('delivery-payload').waitFor();
    // Resend is offered, but focus is on the dialog's title, not on it.
    await details().getByTestId('delivery-resend').waitFor();
    await expect(focused()).resolves.toEqual(TITLE_FOCUSED);
    await expect(details().getByTestId('delivery-status').textContent()).resolves.toBe('Delivered');
    await expect(details().getByTestId('delivery-status-code').textContent()).resolves.toBe('200');
    await expect(details().getByTestId('delivery-event').textContent()).resolves.toBe('record.created');
    await expect(details().getByTestId('delivery-url').textContent()).resolves.toBe(hookUrl);
    await expect(details().getByTestId('delivery-id').textContent()).resolves.toBe(firstDeliveryId);
    await expect(details().getByTestId('element-display').textContent()).resolves.toBe(DEAL);

    const payload = JSON.parse((await details().getByTestId('delivery-payload').textContent()) ?? '{}');
    expect(payload).toMatchObject({ record: { ref: { recordId: dealId } } });
    expect(JSON.stringify(payload)).toContain(DEAL);

    const attempts = details().getByTestId('delivery-attempt');
    await expect(attempts.count()).resolves.toBe(1);
    await expect(attempts.first().getByTestId('delivery-attempt-status-code').textContent()).resolves.toBe(
      '200',
    );
    await expect(attempts.first().getAttribute('data-outcome')).resolves.toBe('delivered');

    const link = details().getByTestId('delivery-temporal-link');
    await expect(link.textContent()).resolves.toContain('Open in Temporal Web UI');
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    await expect(link.getAttribute('href')).resolves.toBe(
      `${TEMPORAL_UI_URL}/namespaces/default/workflows/delivery-${firstDeliveryId}`,
    );
    await screenshot(page, '24-event-details');
  });

  it('Event Details show each request as sent, secrets masked, and the receiver’s headers', async () => {
    const exchange = details().getByTestId('attempt-exchange').first();
    await exchange.locator('summary').click();
    const requestHeaders = exchange.getByTestId('attempt-request-headers');
    await requestHeaders.waitFor();
    const headerText = (await requestHeaders.innerText()).replace(/\s+/g, ' ');
    expect(headerText).toContain(`X-Service-Delivery-Id: ${firstDeliveryId}`);
    expect(headerText).toContain('Content-Type: application/json');
    expect(headerText).toContain('X-Webhook-Signature: ********');
    expect(headerText).toContain('X-Team: ********');
    // The Admin owns the webhook: the body is shown as the receiver got it, indented for reading (it
    // is JSON); Copy copies it byte for byte (keyboard-and-layout.test.ts).
    const [received] = receiver.received;
    await expect(exchange.getByTestId('attempt-request-body').textContent()).resolves.toBe(
      JSON.stringify(JSON.parse(received!.rawBody.toString('utf8')), null, 2),
    );
    const responseText = (await exchange.getByTestId('attempt-response-headers').innerText()).replace(
      /\s+/g,
      ' ',
    );
    expect(responseText).toContain('Set-Cookie: ********');
    for (const secret of [
      TEAM_HEADER_VALUE,
      RECEIVER_COOKIE,
      received!.headers['x-webhook-signature'] as string,
    ])
      expect(await pageHolds(page, secret)).toBe(false);
    await screenshot(page, '24b-event-details-request');
  });

  it('Resend adds a second delivery of the same event; the receiver gets the same event id twice', async () => {
    await details().getByTestId('delivery-resend').click();
    await details().getByTestId('delivery-resent-notice').waitFor();
    const resentId = (await details().getByTestId('delivery-id').textContent()) ?? '';
    expect(resentId).not.toBe(firstDeliveryId);
    await expect(details().getByTestId('delivery-trigger').textContent()).resolves.toBe(
      `Resend of ${firstDeliveryId}`,
    );
    await eventually(
      async () => (await details().getByTestId('delivery-status').textContent()) === 'Delivered',
      'the resend is delivered',
      DELIVERY_TIMEOUT_MS,
    );
    await details().getByTestId('delivery-attempt').first().waitFor();
    await screenshot(page, '25-resent');
    await details().getByTestId('delivery-close').click();
    await details().waitFor({ state: 'detached' });

    await eventually(async () => (await rows().count()) === 2, 'both deliveries are listed');
    await expect(rows().first().getAttribute('data-delivery-id')).resolves.toBe(resentId);
    await expect(rows().first().getAttribute('data-trigger')).resolves.toBe('resend');
    await expect(rows().nth(1).getAttribute('data-delivery-id')).resolves.toBe(firstDeliveryId);
    await screenshot(page, '26-deliveries-after-resend');

    await eventually(
      async () => receiver.received.length === 2,
      'the receiver got the resend',
      DELIVERY_TIMEOUT_MS,
    );
    const [first, second] = receiver.received;
    expect(second!.json.id).toBe(first!.json.id);
    expect(first!.headers['x-service-delivery-id']).toBe(firstDeliveryId);
    expect(second!.headers['x-service-delivery-id']).toBe(resentId);
  });

  it('Event Details of a delivery whose record cannot be read say so; Resend shows the server’s refusal', async () => {
    await page.getByTestId('deliveries-url').fill('');
    const legacy = page.locator('[data-testid=delivery-row]', { hasText: 'deal.created' });
    await legacy.getByTestId('delivery-open').click();
    await details().getByTestId('delivery-payload-unreadable').waitFor();
    await expect(details().getByTestId('delivery-status-code').textContent()).resolves.toBe('—');
    await expect(details().getByTestId('delivery-event').textContent()).resolves.toBe(
      'deal.created (legacy)',
    );
    await expect(details().getByTestId('delivery-no-attempts').count()).resolves.toBe(1);
    // A Failed legacy delivery: Resend is offered, and the server's refusal is shown.
    await details().getByTestId('delivery-resend').click();
    await details().getByTestId('error-message').waitFor();
    await expect(details().getByTestId('error-message').textContent()).resolves.toContain('retired');
    await screenshot(page, '27-legacy-details');
    await details().getByTestId('delivery-close').click();
  });
  it('shows a retrying delivery as Failed, retrying at its next attempt’s time with seconds and zone, and shows an interrupted request', async () => {
    const workspace = await appFetch(page, 'GET', '/app/api/session');
    const webhooks = await appFetch(page, 'GET', '/app/api/webhooks');
    const retryingUrl = 'https://retrying.example.com/hook';
    const [row] = await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
         response_message, attempts, next_attempt_at, workflow_started_at)
       VALUES ($1, $2, $3, 'record.created', $4, 'event', 'failed', 503, 'Service Unavailable', 2,
         now() + interval '20 seconds', now())
       RETURNING id`,
      [workspace.workspace.id, webhooks.data[0].id, randomUUID(), retryingUrl],
    );
    await app.dataSource.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code, response_message, outcome)
       VALUES ($1, 1, 1, '2026-01-02T03:04:05.678Z', NULL, $2, NULL, 'Outcome unknown: the worker was lost', 'unknown'),
              ($1, 1, 2, '2026-01-02T03:04:17Z', 12, $2, 503, 'Service Unavailable', 'retry'),
              ($1, 2, 1, '2026-01-02T03:04:37Z', 9, $2, 503, 'Service Unavailable', 'retry')`,
      [row.id, retryingUrl],
    );

    await page.getByTestId('deliveries-url').fill(retryingUrl);
    await eventually(async () => listedOnly(retryingUrl), 'the retrying delivery is listed');
    const retrying = rows().first();
    await expect(retrying.getAttribute('data-status')).resolves.toBe('failed');
    await expect(retrying.getAttribute('data-state')).resolves.toBe('retrying');
    // The Status column holds the spec's status; the retry is said beside it, with its time zone.
    await expect(retrying.getByTestId('delivery-status').textContent()).resolves.toBe('Failed');
    await expect(retrying.getByTestId('delivery-status-line').textContent()).resolves.toMatch(RETRYING_AT);
    const [{ next_attempt_at: nextAttemptAt }] = await app.dataSource.query(
      'SELECT next_attempt_at FROM deliveries WHERE id = $1',
      [row.id],
    );
    await expect(
      retrying.getByTestId('delivery-next-attempt').locator('time').getAttribute('datetime'),
    ).resolves.toBe((nextAttemptAt as Date).toISOString());
    const retryingColour = await colourOf(retrying.getByTestId('delivery-retrying'));
    const failedColour = await colourOf(retrying.getByTestId('delivery-status'));
    await expect(retrying.getByTestId('delivery-created-at').textContent()).resolves.toMatch(
      /\d{2}:\d{2}:\d{2}/,
    );

    // The legacy delivery failed for good: no next attempt is shown.
    await page.getByTestId('deliveries-url').fill('https://legacy.example.com/old');
    await eventually(async () => listedOnly('https://legacy.example.com/old'), 'the final failure is listed');
    await expect(rows().first().getByTestId('delivery-next-attempt').count()).resolves.toBe(0);
    await expect(rows().first().getByTestId('delivery-status-line').textContent()).resolves.toBe('Failed');
    // Both are Failed, in Failed's colours; the retry beside one has a colour of its own.
    expect(await colourOf(rows().first().getByTestId('delivery-status'))).toBe(failedColour);
    expect(retryingColour).not.toBe(failedColour);

    await page.getByTestId('deliveries-url').fill(retryingUrl);
    await eventually(async () => listedOnly(retryingUrl), 'the retrying delivery is listed again');
    await rows().first().getByTestId('delivery-open').click();
    await details().getByTestId('delivery-attempt-history').waitFor();
    await details().getByTestId('delivery-next-attempt').first().waitFor();
    await expect(focused()).resolves.toEqual(TITLE_FOCUSED);
    // Event Details' Status says the same as the row.
    await expect(
      details().getByTestId('delivery-facts').getByTestId('delivery-status-line').textContent(),
    ).resolves.toMatch(RETRYING_AT);
    const attempts = details().getByTestId('delivery-attempt');
    await expect(attempts.count()).resolves.toBe(3);
    await expect(attempts.first().getAttribute('data-outcome')).resolves.toBe('unknown');
    await expect(attempts.first().textContent()).resolves.toContain('Unknown (interrupted)');
    await expect(attempts.nth(1).textContent()).resolves.toContain('(request 2)');
    await expect(attempts.first().locator('time').textContent()).resolves.toMatch(/\d{2}:\d{2}:\d{2}/);
    await screenshot(page, '28-retrying-details');
    // No workflow waits for this one (it was written by hand): Retry now shows the server's refusal.
    await details().getByTestId('delivery-retry-now').click();
    await expect(details().getByTestId('error-message').textContent()).resolves.toMatch(
      /no longer waiting for attempt 3, the one scheduled when this call read it/,
    );
    await details().getByTestId('delivery-close').click();
  });

  it('a retrying delivery: listed as Failed, narrowed to the retrying ones, its chain explained, Retry now first and focus on no write; Retry now delivers it in the same delivery', async () => {
    // A receiver that fails until told otherwise: the delivery retries, 10 s, then 20 s, … apart.
    const flakyUrl = `${receiver.url}/hooks/flaky`;
    receiver.replies('/hooks/flaky', { status: 503, statusText: 'Busy' });
    const flaky = await appFetch(page, 'POST', '/app/api/webhooks', {
      url: flakyUrl,
      events: ['record.updated'],
      description: 'Flaky receiver',
    });
    const model = await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' });
    const name = model.type.fields.find((field: { name: string }) => field.name === 'Name').id as string;
    await appFetch(page, 'PATCH', `/app/api/records/deal/${dealId}`, {
      values: { [name]: `${DEAL} (renamed)` },
    });
    const retryingRow = async () =>
      (await appFetch(page, 'GET', `/app/api/webhooks/${flaky.id}/deliveries`)).data[0];
    await eventually(
      async () => (await retryingRow())?.state === 'retrying',
      'the flaky delivery failed its first attempt',
      DELIVERY_TIMEOUT_MS,
    );

    // The Status filter offers the spec's four statuses: Failed lists the retrying deliveries too.
    await page.goto(`${app.baseUrl}/deliveries`);
    await page.getByTestId('deliveries-status').waitFor();
    await expect(page.getByTestId('deliveries-status').locator('option').allTextContents()).resolves.toEqual([
      'All statuses',
      'Pending',
      'Sending',
      'Delivered',
      'Failed',
    ]);
    await page.getByTestId('deliveries-status').selectOption('failed');
    await page.waitForURL(`${app.baseUrl}/deliveries?status=failed`);
    const flakyRow = page.locator('[data-testid=delivery-row]', { hasText: 'Flaky receiver' });
    /** The list of the filter asked now (not an older answer) holds rows, each in one state. */
    const listedStates = async () =>
      (await page.locator('.table-wrap.is-stale').count()) === 0
        ? [
            ...new Set(
              await rows().evaluateAll((all) => all.map((row: any) => row.getAttribute('data-state'))),
            ),
          ].sort()
        : [];
    await eventually(
      async () => (await listedStates()).join() === 'failed,retrying' && (await flakyRow.count()) === 1,
      'Failed lists the retrying deliveries, the flaky one among them, and those failed for good',
    );
    await expect(flakyRow.getByTestId('delivery-status').textContent()).resolves.toBe('Failed');
    await expect(flakyRow.getByTestId('delivery-status-line').textContent()).resolves.toMatch(RETRYING_AT);
    // Failed can be narrowed to the retrying ones, or to those failed for good.
    await page.getByTestId('deliveries-state').selectOption('retrying');
    await page.waitForURL(`${app.baseUrl}/deliveries?status=failed&state=retrying`);
    await eventually(
      async () => (await listedStates()).join() === 'retrying' && (await flakyRow.count()) === 1,
      'the retrying deliveries only, the flaky one among them',
    );
    await page.getByTestId('deliveries-state').selectOption('failed');
    await page.waitForURL(`${app.baseUrl}/deliveries?status=failed&state=failed`);
    await eventually(
      async () => (await listedStates()).join() === 'failed' && (await flakyRow.count()) === 0,
      'the deliveries that failed for good only',
    );
    // Another status takes the narrowing off.
    await page.getByTestId('deliveries-status').selectOption('delivered');
    await page.waitForURL(`${app.baseUrl}/deliveries?status=delivered`);
    await expect(page.getByTestId('deliveries-state').count()).resolves.toBe(0);
    // A link made when Retrying was a status of its own still lists them.
    await page.goto(`${app.baseUrl}/deliveries?status=retrying`);
    await flakyRow.waitFor();
    await expect(page.getByTestId('deliveries-status').inputValue()).resolves.toBe('failed');
    await expect(page.getByTestId('deliveries-state').inputValue()).resolves.toBe('retrying');
    await screenshot(page, '28c-retrying-filter');

    // Event Details: the chain explained, Retry now the primary action, Resend second; focus on the title.
    await flakyRow.getByTestId('delivery-open').click();
    await details().getByTestId('delivery-retrying-notice').waitFor();
    await expect(focused()).resolves.toEqual(TITLE_FOCUSED);
    const notice = (await details().getByTestId('delivery-retrying-notice').textContent()) ?? '';
    expect(notice).toMatch(new RegExp(`^${RETRYING_AT_TEXT}`));
    expect(notice).toMatch(/retry chain is still running: attempt \d+ of 10 runs then/);
    expect(notice).toMatch(/Retry now runs that attempt now/);
    expect(notice).toMatch(/Resend would send the event again as a new delivery while these retries go on/);
    const retryNow = details().getByTestId('delivery-retry-now');
    await expect(retryNow.getAttribute('class')).resolves.toContain('button-primary');
    await expect(details().getByTestId('delivery-resend').getAttribute('class')).resolves.toBe('button');
    await expect(details().getByTestId('delivery-resend').textContent()).resolves.toBe(
      'Resend as a new delivery',
    );
    await screenshot(page, '28d-retrying-event-details');

    // Retry now: the receiver answers 200 from now on, and gets the attempt long before it was due.
    const before = await retryingRow();
    const due = Date.parse(before.nextAttemptAt);
    const requestsBefore = receiver.received.filter((r) => r.path === '/hooks/flaky').length;
    receiver.replies('/hooks/flaky', { status: 200 });
    await retryNow.click();
    await details().getByTestId('delivery-retried-notice').waitFor();
    await eventually(
      async () => (await details().getByTestId('delivery-status').textContent()) === 'Delivered',
      'the attempt brought forward delivers',
      DELIVERY_TIMEOUT_MS,
    );
    expect(Date.now()).toBeLessThan(due);
    await expect(details().getByTestId('delivery-retried-notice').textContent()).resolves.toMatch(
      new RegExp(`attempt ${before.attempts + 1} of 10 ran\\. The delivery is now Delivered\\.`),
    );
    await expect(details().getByTestId('delivery-id').textContent()).resolves.toBe(before.id);
    await expect(details().getByTestId('delivery-attempts').textContent()).resolves.toBe(
      String(before.attempts + 1),
    );
    await expect(details().getByTestId('delivery-retry-now').count()).resolves.toBe(0);
    const requests = receiver.received.filter((r) => r.path === '/hooks/flaky');
    expect(requests).toHaveLength(requestsBefore + 1);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery-id']))).toEqual(new Set([before.id]));
    expect((await appFetch(page, 'GET', `/app/api/webhooks/${flaky.id}/deliveries`)).data).toHaveLength(1);
    await screenshot(page, '28e-retried-now');
    await details().getByTestId('delivery-close').click();
    await details().waitFor({ state: 'detached' });
    await appFetch(page, 'DELETE', `/app/api/webhooks/${flaky.id}`);
    await page.goto(`${app.baseUrl}/deliveries`);
    await page.getByTestId('deliveries-page').waitFor();
  });
  it('Event Details say when an attempt’s request details expired, in place of the request', async () => {
    const workspace = await appFetch(page, 'GET', '/app/api/session');
    const webhooks = await appFetch(page, 'GET', '/app/api/webhooks');
    const expiredUrl = 'https://expired.example.com/hook';
    const [row] = await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
         response_message, attempts, workflow_started_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'record.created', $4, 'event', 'delivered', 200, 'OK', 1, now(),
         now() - interval '40 days', now() - interval '40 days')
       RETURNING id`,
      [workspace.workspace.id, webhooks.data[0].id, randomUUID(), expiredUrl],
    );
    await app.dataSource.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code,
         response_message, outcome, request_headers, request_body, request_body_sha256, request_body_bytes)
       VALUES ($1, 1, 1, now() - interval '40 days', 35, $2, 200, 'OK', 'delivered',
         '[["Content-Type","application/json"]]', '{"kept":"for a while"}', repeat('c', 64), 22)`,
      [row.id, expiredUrl],
    );
    await expireAttemptDetails(app.dataSource, { days: 30 });
    const [{ expiredAt }] = await app.dataSource.query(
      `SELECT request_expired_at AS "expiredAt" FROM delivery_attempts WHERE delivery_id = $1`,
      [row.id],
    );

    await page.getByTestId('deliveries-url').fill(expiredUrl);
    await eventually(async () => listedOnly(expiredUrl), 'the delivery with an expired request is listed');
    await rows().first().getByTestId('delivery-open').click();
    const attempt = details().getByTestId('delivery-attempt');
    await attempt.first().waitFor();
    await expect(attempt.first().getByTestId('delivery-attempt-status-code').textContent()).resolves.toBe(
      '200',
    );
    const exchange = details().getByTestId('attempt-exchange').first();
    await exchange.locator('summary').click();
    const expired = exchange.getByTestId('attempt-request-expired');
    await expired.waitFor();
    await expect(expired.textContent()).resolves.toMatch(/^Request details expired on .*\d{4}/);
    await expect(expired.locator('time').getAttribute('dateTime')).resolves.toBe(
      (expiredAt as Date).toISOString(),
    );
    await expect(exchange.getByTestId('attempt-request-headers').count()).resolves.toBe(0);
    await expect(exchange.getByTestId('attempt-request-none').count()).resolves.toBe(0);
    expect(await pageHolds(page, 'for a while')).toBe(false);
    await screenshot(page, '28b-expired-request');
    await details().getByTestId('delivery-close').click();
  });
  it('filters on the server: finds deliveries beyond the first page, keeps the filters in the address, counts them', async () => {
    const workspace = (await appFetch(page, 'GET', '/app/api/session')).workspace.id as string;
    const [webhook] = (await appFetch(page, 'GET', '/app/api/webhooks')).data;
    const goneWebhookId = randomUUID();
    // Two failures an hour old, one to a webhook deleted since, under 60 newer deliveries: the
    // first page (50) holds neither.
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
         response_message, attempts, workflow_started_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'record.deleted', 'https://gone.example.com/hook', 'event', 'failed', 404,
         'Not Found', 1, now(), now() - interval '50 minutes', now() - interval '50 minutes')`,
      [workspace, goneWebhookId, randomUUID()],
    );
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
         response_message, attempts, workflow_started_at)
       SELECT $1, $2, gen_random_uuid(), 'record.created', 'https://bulk.example.com/hook', 'event',
         'delivered', 200, 'OK', 1, now()
         FROM generate_series(1, 60)`,
      [workspace, webhook.id],
    );

    await page.getByTestId('deliveries-clear-filters').click();
    await eventually(async () => (await rows().count()) === 50, 'the first page is listed');
    await expect(page.getByTestId('deliveries-total').textContent()).resolves.toMatch(
      /^50 of \d+ deliveries shown$/,
    );
    await page.getByTestId('deliveries-load-more').waitFor();

    // Failed is the spec's: the legacy delivery, this one and the retrying one, however old.
    await page.getByTestId('deliveries-status').selectOption('failed');
    await eventually(
      async () =>
        (await rows().count()) === 3 &&
        (await page.getByTestId('deliveries-total').textContent()) === '3 deliveries',
      'every Failed delivery is listed, however old, the retrying one among them',
    );
    await page.waitForURL(`${app.baseUrl}/deliveries?status=failed`);
    // Narrowed to those failed for good: not the retrying one.
    await page.getByTestId('deliveries-state').selectOption('failed');
    await eventually(
      async () =>
        (await rows().count()) === 2 &&
        (await page.getByTestId('deliveries-total').textContent()) === '2 deliveries',
      'every delivery that failed for good is listed, however old',
    );
    await page.waitForURL(`${app.baseUrl}/deliveries?status=failed&state=failed`);
    const gone = page.locator('[data-testid=delivery-row]', { hasText: 'gone.example.com' });
    await expect(gone.getByTestId('delivery-webhook').textContent()).resolves.toContain('Deleted webhook');
    await expect(gone.getByTestId('delivery-webhook').getAttribute('data-deleted')).resolves.toBe('true');

    // The address keeps the filters: a reload (or a link) shows the same log.
    await page.getByTestId('deliveries-event').selectOption('record.deleted');
    await page.waitForURL(`${app.baseUrl}/deliveries?status=failed&state=failed&event=record.deleted`);
    await page.reload();
    await page.getByTestId('deliveries-page').waitFor();
    await expect(page.getByTestId('deliveries-status').inputValue()).resolves.toBe('failed');
    await expect(page.getByTestId('deliveries-state').inputValue()).resolves.toBe('failed');
    await expect(page.getByTestId('deliveries-event').inputValue()).resolves.toBe('record.deleted');
    await eventually(
      async () =>
        (await rows().count()) === 1 &&
        (await rows().first().getByTestId('delivery-open').textContent()) === 'https://gone.example.com/hook',
      'the filtered log after a reload',
    );
    await screenshot(page, '29-server-filters');

    // The webhook filter, by the webhook's description.
    await appFetch(page, 'PATCH', `/app/api/webhooks/${webhook.id}`, { description: 'CRM sync' });
    await page.goto(
      `${app.baseUrl}/deliveries?webhookId=${webhook.id}&url=${encodeURIComponent('https://bulk.example.com/hook')}`,
    );
    await expect(page.getByTestId('deliveries-webhook').inputValue()).resolves.toBe(webhook.id);
    await eventually(
      async () => (await page.getByTestId('deliveries-total').textContent()) === '50 of 60 deliveries shown',
      'the bulk deliveries of that webhook are counted',
    );
    await expect(rows().first().getByTestId('delivery-webhook').textContent()).resolves.toBe('CRM sync');
    await page.getByTestId('deliveries-clear-filters').click();
    await page.waitForURL(`${app.baseUrl}/deliveries`);
  });

  it('names a record by its name field, not by the field an update changed', async () => {
    const updates = await appFetch(page, 'POST', '/app/api/webhooks', {
      url: `${receiver.url}/updates`,
      events: ['record.updated'],
      description: 'Updates feed',
    });
    const model = await appFetch(page, 'POST', '/app/api/model/read', { type: 'contact' });
    const field = (name: string) =>
      model.type.fields.find((candidate: { name: string }) => candidate.name === name).id as string;
    const contact = await appFetch(page, 'POST', '/app/api/records/contact', {
      values: { [field('Name')]: 'Grace Hopper' },
    });
    await appFetch(page, 'PATCH', `/app/api/records/contact/${contact.id}`, {
      values: { [field('Phone')]: '+1 555 0100' },
    });

    await page.goto(`${app.baseUrl}/deliveries?webhookId=${updates.id}`);
    await eventually(
      async () =>
        (await rows().count()) === 1 && (await rows().first().getAttribute('data-status')) === 'delivered',
      'the update is delivered',
      DELIVERY_TIMEOUT_MS,
    );
    const row = rows().first();
    await expect(row.getByTestId('element-display').textContent()).resolves.toBe('Grace Hopper');
    await expect(row.getByTestId('delivery-cell-element').textContent()).resolves.not.toContain('555');
    await expect(row.getByTestId('delivery-webhook').textContent()).resolves.toBe('Updates feed');
    await row.getByTestId('delivery-open').click();
    await details().getByTestId('delivery-payload').waitFor();
    await expect(details().getByTestId('element-display').textContent()).resolves.toBe('Grace Hopper');
    await expect(details().getByTestId('delivery-webhook').textContent()).resolves.toBe('Updates feed');
    await details().getByTestId('delivery-close').click();
  });

  it('wraps a long URL between its parts, inside its column', async () => {
    const workspace = (await appFetch(page, 'GET', '/app/api/session')).workspace.id as string;
    const [webhook] = (await appFetch(page, 'GET', '/app/api/webhooks')).data;
    const longUrl = `https://receiver.integration-partner.example.com/${'webhooks-endpoint/'.repeat(8)}crm?tenant=analytical-engines&token=abc`;
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, attempts, workflow_started_at)
       VALUES ($1, $2, $3, 'record.created', $4, 'event', 'failed', 1, now())`,
      [workspace, webhook.id, randomUUID(), longUrl],
    );
    await page.goto(`${app.baseUrl}/deliveries?url=${encodeURIComponent(longUrl)}`);
    await eventually(async () => (await rows().count()) === 1, 'the long URL is listed');
    await expect(rows().first().getByTestId('delivery-open').textContent()).resolves.toBe(longUrl);
    // The page runs this (the test code is type-checked without the DOM library).
    const layout = (await page.evaluate(`(() => {
      const wrap = document.querySelector('.table-wrap');
      const button = document.querySelector('[data-testid=delivery-open]');
      const parts = Array.from(button.childNodes).filter((node) => node.nodeType === Node.TEXT_NODE);
      // Where a part's text starts a new line: the character before each break.
      const breaksInside = (node) => {
        const before = [];
        let top;
        for (let i = 0; i < node.textContent.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getBoundingClientRect();
          if (top !== undefined && rect.top > top + 1) before.push(node.textContent[i - 1]);
          top = rect.top;
        }
        return before;
      };
      return {
        overflow: wrap.scrollWidth - wrap.clientWidth,
        height: button.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(button).lineHeight) || 20,
        // A break inside a part other than after its hyphen (the browser's own rule) is mid-word.
        midWord: parts.flatMap((node) => breaksInside(node).filter((char) => char !== '-').map(() => node.textContent)),
        parts: parts.length,
      };
    })()`)) as { overflow: number; height: number; lineHeight: number; midWord: string[]; parts: number };
    expect(layout.overflow).toBeLessThanOrEqual(0);
    expect(layout.height).toBeGreaterThan(layout.lineHeight * 1.5); // it wraps…
    expect(layout.parts).toBeGreaterThan(10);
    expect(layout).toMatchObject({ midWord: [] }); // …between parts, never mid-word
    await screenshot(page, '30-long-url');
  });

  it('sends a test event from the row menu: signed, marked data.test, listed with a Test tag', async () => {
    await page.getByTestId('nav-webhooks').click();
    const row = page.locator(`[data-testid=webhook-row][data-url="${hookUrl}"]`);
    await row.getByTestId('webhook-menu').click();
    await page.getByTestId('webhook-send-test').click();
    const dialog = page.getByTestId('send-test-event');
    await expect(dialog.getByTestId('test-event-name').inputValue()).resolves.toBe('record.created');
    const before = receiver.received.length;
    await dialog.getByTestId('test-event-send').click();
    await dialog.getByTestId('test-event-sent').waitFor();
    const testId = await dialog.getByTestId('test-event-sent').getAttribute('data-delivery-id');
    await screenshot(page, '29-test-event-sent');

    await eventually(
      async () => receiver.received.length === before + 1,
      'the receiver got the test event',
      DELIVERY_TIMEOUT_MS,
    );
    const test = receiver.received[before]!;
    expect(test.headers['x-service-delivery-id']).toBe(testId);
    expect(test.json).toMatchObject({ event: 'record.created', data: { test: true } });

    await dialog.getByTestId('test-event-show-deliveries').click();
    await page.getByTestId('deliveries-page').waitFor();
    const listed = page.locator(`[data-testid=delivery-row][data-delivery-id="${testId}"]`);
    await listed.waitFor();
    await expect(listed.getAttribute('data-trigger')).resolves.toBe('test');
    await expect(listed.getByTestId('delivery-test-tag').textContent()).resolves.toBe('Test');
  });

  it('finds a delivery by its short id, its event id and its record id; the search offers an id to them', async () => {
    const { data: ofDeal } = await appFetch(page, 'GET', `/app/api/webhooks/deliveries?recordId=${dealId}`);
    const first = ofDeal.find((delivery: { id: string }) => delivery.id === firstDeliveryId);
    const sameEvent = ofDeal.filter((delivery: { eventId: string }) => delivery.eventId === first.eventId);
    expect(sameEvent.length).toBeGreaterThanOrEqual(2); // the delivery and its resend
    const listedIds = async () =>
      (await page.locator('.table-wrap.is-stale').count()) === 0
        ? (await rows().evaluateAll((all) => all.map((row) => row.getAttribute('data-delivery-id')))).sort()
        : [];
    const sorted = (deliveries: { id: string }[]) => deliveries.map((delivery) => delivery.id).sort();

    await page.getByTestId('deliveries-clear-filters').click();
    await page.waitForURL(`${app.baseUrl}/deliveries`);
    const short = firstDeliveryId.slice(0, 8);
    await page.getByTestId('deliveries-idPrefix').fill(short.slice(0, 5));
    // Five characters are not a short id: said, and not applied.
    await expect(page.getByTestId('deliveries-id-invalid').textContent()).resolves.toContain(
      'its first 8 or more characters',
    );
    await page.getByTestId('deliveries-idPrefix').fill(short);
    await eventually(
      async () => (await listedIds()).join() === firstDeliveryId,
      'the short id finds the delivery',
    );
    expect(await page.getByTestId('deliveries-id-invalid').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('idPrefix')).toBe(short);
    await screenshot(page, '31-find-by-short-id');

    await page.getByTestId('deliveries-idPrefix').fill('');
    await page.getByTestId('deliveries-eventId').fill(first.eventId);
    await eventually(
      async () => (await listedIds()).join() === sorted(sameEvent).join(),
      'the event id finds its deliveries',
    );
    // Combined: the event id and the record id, as the address keeps them after a reload.
    await page.getByTestId('deliveries-recordId').fill(dealId);
    await page.reload();
    await page.getByTestId('deliveries-page').waitFor();
    await expect(page.getByTestId('deliveries-recordId').inputValue()).resolves.toBe(dealId);
    await eventually(
      async () => (await listedIds()).join() === sorted(sameEvent).join(),
      'the event and record ids after a reload',
    );
    await page.getByTestId('deliveries-eventId').fill('');
    await eventually(
      async () => (await listedIds()).join() === sorted(ofDeal).join(),
      'every delivery of the record',
    );

    // A short id typed in the search matches no URL or event name; the page offers it as a delivery id.
    await page.getByTestId('deliveries-clear-filters').click();
    await page.getByTestId('deliveries-search').fill(short);
    await page.getByTestId('deliveries-search-as-idPrefix').click();
    await eventually(async () => (await listedIds()).join() === firstDeliveryId, 'moved to the id filter');
    await expect(page.getByTestId('deliveries-search').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('deliveries-idPrefix').inputValue()).resolves.toBe(short);
    await page.getByTestId('deliveries-clear-filters').click();
  });
});
