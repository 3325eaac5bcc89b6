import type { Page } from 'playwright-core';
import { appFetch, eventually, screenshot, useBrowserSession } from '../helpers/browser';
import { Receiver } from '../helpers/receiver';
import type { TestApp } from '../helpers/test-app';

const admin = { name: 'Nadia Notices', email: 'nadia@example.com', password: 'correct horse battery' };
const EVENT = 'messaging.chat.updated';

/**
 * Issue 37, item 1, in a real headless Chromium with a real worker: a receiver answering 410 Gone
 * gets the webhook disabled by the service; its owner's bell counts the notice and the panel reads
 * it; the Webhooks list and the dialog say why and since when; one click on Re-enable switches it
 * on again (why and since when gone), and Dismiss clears the notice.
 */
describe('web app: notices of a disabled webhook, and Re-enable', () => {
  const session = useBrowserSession({ worker: true, signUp: { ...admin, workspace: 'Noticed Hooks' } });
  let app: TestApp;
  let page: Page;
  let receiver: Receiver;
  let webhookId: string;
  let goneUrl: string;

  beforeAll(async () => {
    ({ app, page } = session);
    receiver = await new Receiver().start();
    receiver.replies('/gone', { status: 410, statusText: 'Gone' });
    goneUrl = `${receiver.url}/gone`;
    webhookId = (
      await appFetch(page, 'POST', '/app/api/webhooks', {
        url: goneUrl,
        description: 'Billing sync',
        events: [EVENT],
      })
    ).id as string;
    await appFetch(page, 'POST', `/app/api/webhooks/${webhookId}/test`, { event: EVENT });
    await eventually(
      async () => !(await appFetch(page, 'GET', `/app/api/webhooks/${webhookId}`)).enabled,
      'the service disabled the webhook',
      30_000,
    );
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const row = () => page.locator(`[data-testid="webhook-row"][data-webhook-id="${webhookId}"]`);

  it('the bell counts the notice, and its panel reads it', async () => {
    await page.goto(`${app.baseUrl}/webhooks`);
    const bell = page.getByTestId('notices-bell');
    await eventually(
      async () => (await bell.getAttribute('data-count')) === '1',
      'the bell counts one notice',
    );
    expect(await bell.textContent()).toBe('Notices (1)');
    await bell.click();
    const notice = page.getByTestId('notices-panel').getByTestId('notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-kind')).toBe('endpoint.disabled');
    const text = await notice.textContent();
    expect(text).toContain(`Webhook disabled: ${goneUrl}`);
    expect(text).toContain('answered 410 Gone');
    await screenshot(page, 'webhook-notices-panel', { fullPage: false });
    await bell.click();
  });

  it('the list and the dialog say why and since when; Re-enable switches it on in one click', async () => {
    await page.goto(`${app.baseUrl}/webhooks`);
    await row().waitFor();
    expect(await row().getByTestId('webhook-status').textContent()).toBe('Disabled');
    const inRow = row().getByTestId('webhook-disabled-by-service');
    expect(await inRow.textContent()).toContain('Disabled by the service since');
    await screenshot(page, 'webhook-disabled-by-service');

    await row().getByTestId('webhook-open').click();
    const dialog = page.getByTestId('webhook-dialog');
    const inDialog = dialog.getByTestId('webhook-disabled-by-service');
    await inDialog.waitFor();
    expect(await inDialog.textContent()).toContain(
      'The endpoint answered 410 Gone: the receiver says this address takes no more deliveries.',
    );
    await screenshot(page, 'webhook-dialog-disabled-by-service', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await row().getByTestId('webhook-re-enable').click();
    await eventually(
      async () => (await row().getByTestId('webhook-status').textContent()) === 'Enabled',
      'the row reads Enabled',
    );
    expect(await row().getByTestId('webhook-disabled-by-service').count()).toBe(0);
    expect(await page.getByTestId('webhooks-notice').textContent()).toBe(`Webhook to ${goneUrl} re-enabled.`);
    const saved = await appFetch(page, 'GET', `/app/api/webhooks/${webhookId}`);
    expect(saved).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
  });

  it('Dismiss clears the notice', async () => {
    await page.getByTestId('notices-bell').click();
    await page.getByTestId('notice-dismiss').click();
    await eventually(
      async () => (await page.getByTestId('notices-bell').getAttribute('data-count')) === '0',
      'the bell counts none',
    );
    expect(await page.getByTestId('notices-panel').textContent()).toContain('No notices.');
    expect((await appFetch(page, 'GET', '/app/api/notices')).data).toEqual([]);
  });
});
