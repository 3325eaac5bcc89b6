import type { Locator, Page } from 'playwright-core';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { RESEND_BATCH_MAX } from '../../src/shared/limits';
import {
  addWebhookInBrowser,
  appFetch,
  BROWSER_CONTEXT,
  DELIVERY_TIMEOUT_MS,
  browserToday,
  eventually,
  screenshot,
  useBrowserSession,
} from '../helpers/browser';
import { Receiver } from '../helpers/receiver';
import type { TestApp } from '../helpers/test-app';

/**
 * "Resend failed since…" in a real headless Chromium, against the real API, a real Temporal worker
 * and a receiver on loopback that fails, then answers 200 (docs/deliveries.md): the dialog starts
 * a batch, follows it to the end, and shows each delivery resent or refused with its reason, and
 * the note when more remained than one batch resends. Before it starts, it names the browser's time
 * zone (Berlin here) and previews how many Failed deliveries a batch since the time chosen would resend.
 */
const admin = { name: 'Rhea Resend', email: 'rhea@example.com', password: 'correct horse battery' };

describe('web app: resend failed since… in a browser', () => {
  const session = useBrowserSession({
    worker: true,
    signUp: { ...admin, workspace: 'Second Chances' },
    context: { ...BROWSER_CONTEXT, timezoneId: 'Europe/Berlin' },
  });
  let app: TestApp;
  let page: Page;
  let receiver: Receiver;

  beforeAll(async () => {
    ({ app, page } = session);
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const webhookId = async (url: string) =>
    (await page.locator(`[data-testid=webhook-row][data-url="${url}"]`).getAttribute('data-webhook-id'))!;
  const failedOf = async (id: string, count: number) =>
    eventually(
      async () =>
        (await app.dataSource.manager.countBy(Delivery, { webhookId: id, status: 'failed' })) === count,
      `${count} failed deliveries`,
      DELIVERY_TIMEOUT_MS,
    );
  /** The preview once counted: its text and count. */
  const preview = async (dialog: Locator) => {
    const counted = dialog.locator('[data-testid=resend-failed-preview][data-count]');
    await counted.waitFor();
    return { text: await counted.textContent(), count: Number(await counted.getAttribute('data-count')) };
  };
  const openDialog = async (url: string) => {
    await page.getByTestId('nav-webhooks').click();
    await page.locator(`[data-testid=webhook-row][data-url="${url}"]`).getByTestId('webhook-menu').click();
    await page.getByTestId('webhook-resend-failed').click();
    return page.getByTestId('resend-failed');
  };

  it('resends the failed deliveries since 24 h ago and shows each one resent or refused, with the reason', async () => {
    const url = `${receiver.url}/hooks/flaky`;
    receiver.replies('/hooks/flaky', { status: 400, statusText: 'Not today' });
    await addWebhookInBrowser(page, url, ['record.created', 'record.updated']);
    const id = await webhookId(url);
    const model = await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' });
    const name = model.type.fields.find((field: { name: string }) => field.name === 'Name').id as string;
    const deal = await appFetch(page, 'POST', '/app/api/records/deal', { values: { [name]: 'Flaky deal' } });
    await failedOf(id, 1);
    await appFetch(page, 'PATCH', `/app/api/records/deal/${deal.id}`, { values: { [name]: 'Flakier deal' } });
    await failedOf(id, 2);
    // The webhook no longer subscribes to record.updated: that one is refused, the other resent.
    await appFetch(page, 'PATCH', `/app/api/webhooks/${id}`, { events: ['record.created'] });
    receiver.replies('/hooks/flaky', { status: 200 });

    const dialog = await openDialog(url);
    // The default is 24 hours ago, in the browser's time zone.
    const since = await dialog.getByTestId('resend-failed-since').inputValue();
    const hoursAgo =
      (Date.now() - (await page.evaluate((value) => new Date(value).getTime(), since))) / 3_600_000;
    expect(hoursAgo).toBeGreaterThan(23.9);
    expect(hoursAgo).toBeLessThan(24.1);
    // It says which zone that time is in, and how many Failed deliveries there are since then.
    await expect(dialog.getByTestId('resend-failed-zone').textContent()).resolves.toMatch(
      /^Your browser’s time zone: Europe\/Berlin \(UTC\+0[12]:00\)$/,
    );
    await expect(preview(dialog)).resolves.toEqual({
      text: '2 Failed deliveries since then, not resent yet, will be resent.',
      count: 2,
    });
    await screenshot(page, '39-resend-failed-preview', { fullPage: false });
    // Another time is counted again: tomorrow is refused, as a batch since then would be.
    await dialog
      .getByTestId('resend-failed-since')
      .fill(since.replace(/^\d{4}-\d{2}-\d{2}/, await browserToday(page, 1)));
    await expect(dialog.getByTestId('error-message').textContent()).resolves.toBe(
      'Could not count them: since must not lie in the future.',
    );
    await dialog.getByTestId('resend-failed-since').fill(since);
    await expect(preview(dialog)).resolves.toMatchObject({ count: 2 });
    const before = receiver.received.length;
    await dialog.getByTestId('resend-failed-start').click();
    const progress = dialog.getByTestId('resend-failed-progress');
    await dialog.locator('[data-testid=resend-failed-progress][data-status=completed]').waitFor({
      timeout: DELIVERY_TIMEOUT_MS,
    });
    await expect(progress.getByRole('status').textContent()).resolves.toBe(
      'Done: 1 resent, 1 refused, of 2.',
    );
    const results = dialog.getByTestId('resend-failed-result');
    await expect(results.allTextContents()).resolves.toEqual([
      'record.created Resent',
      'record.updated Refused The webhook no longer subscribes to record.updated.',
    ]);
    await expect(dialog.getByTestId('resend-failed-more').count()).resolves.toBe(0);
    await screenshot(page, '40-resend-failed-done');

    await eventually(
      async () => receiver.received.length === before + 1,
      'the receiver got the resend',
      DELIVERY_TIMEOUT_MS,
    );
    expect(receiver.received[before]!.json).toMatchObject({ event: 'record.created' });
    await dialog.getByTestId('resend-failed-show-deliveries').click();
    await page.getByTestId('deliveries-page').waitFor();
  });

  it('says when more failed deliveries remained than one batch resends', async () => {
    const url = `${receiver.url}/hooks/many`;
    receiver.replies('/hooks/many', { status: 400 });
    await addWebhookInBrowser(page, url, ['record.created']);
    const id = await webhookId(url);
    const model = await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' });
    const name = model.type.fields.find((field: { name: string }) => field.name === 'Name').id as string;
    await appFetch(page, 'POST', '/app/api/records/deal', { values: { [name]: 'Many deal' } });
    await failedOf(id, 1);
    // More Failed deliveries of the same event than one batch takes (their resends go to a 200).
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
         status, status_code, response_message, attempts, workflow_started_at, created_at)
       SELECT workspace_id, webhook_id, gen_random_uuid(), event, url, element, 'event', sources_version,
         'failed', 400, 'Bad Request', 1, now(), now() - make_interval(mins => n)
       FROM deliveries, generate_series(1, $2) AS n WHERE webhook_id = $1`,
      [id, RESEND_BATCH_MAX],
    );
    receiver.replies('/hooks/many', { status: 200 });

    const dialog = await openDialog(url);
    await expect(preview(dialog)).resolves.toEqual({
      text: `More than ${RESEND_BATCH_MAX} Failed deliveries since then are not resent yet: this batch resends the oldest ${RESEND_BATCH_MAX}; start another for the rest.`,
      count: RESEND_BATCH_MAX,
    });
    await dialog.getByTestId('resend-failed-start').click();
    await dialog.getByTestId('resend-failed-more').waitFor();
    await expect(dialog.getByTestId('resend-failed-more').textContent()).resolves.toContain(
      `than one batch resends (${RESEND_BATCH_MAX})`,
    );
    await dialog.locator('[data-testid=resend-failed-progress][data-status=completed]').waitFor({
      timeout: 120_000,
    });
    await expect(dialog.getByTestId('resend-failed-result').count()).resolves.toBe(RESEND_BATCH_MAX);
  }, 180_000);

  it('previews only what a batch would take: not the Failed deliveries already resent, nor the retrying ones', async () => {
    // The last test's dialog, done, is closed first. The first test's webhook has two Failed
    // deliveries: one resent (and delivered), one whose resend was refused.
    await page.getByTestId('resend-failed').getByTestId('dialog-close').click();
    const url = `${receiver.url}/hooks/flaky`;
    const id = await webhookId(url);
    // A Failed delivery whose next attempt is to come is left to its schedule.
    await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
         status, status_code, response_message, attempts, workflow_started_at, next_attempt_at, created_at)
       SELECT workspace_id, webhook_id, gen_random_uuid(), event, url, element, 'event', sources_version,
         'failed', 503, 'Service Unavailable', 1, now(), now() + interval '1 hour', now()
       FROM (SELECT * FROM deliveries WHERE webhook_id = $1 LIMIT 1) AS one`,
      [id],
    );
    const dialog = await openDialog(url);
    await expect(preview(dialog)).resolves.toEqual({
      text: '1 Failed delivery since then, not resent yet, will be resent.',
      count: 1,
    });
    await page.keyboard.press('Escape');
  });
});
