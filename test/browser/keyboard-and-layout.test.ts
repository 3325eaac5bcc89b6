import type { Locator, Page } from 'playwright-core';
import {
  addWebhookInBrowser,
  appFetch,
  BROWSER_CONTEXT,
  DELIVERY_TIMEOUT_MS,
  eventually,
  pageHolds,
  screenshot,
  useBrowserSession,
} from '../helpers/browser';
import { Receiver } from '../helpers/receiver';

/**
 * The web app under hand and thumb (issue 27, item 7), in a real headless Chromium on a 1280 × 800
 * screen against the real API, a real Temporal worker and a receiver on loopback: the last row's
 * ⋯ menu opens upward inside the window, menus answer the arrow keys and give focus back, dialogs
 * keep Tab inside and give focus back, the shown-once key asks before it is gone, a new webhook
 * offers "Send test event", and a request body reads indented with a Copy of the exact bytes sent.
 * BROWSER_SHOTS=/some/dir saves screenshots.
 */
const SCREEN = { width: 1280, height: 800 };
const admin = { name: 'Hana Hand', email: 'hana@example.com', password: 'correct horse battery' };
/** More rows than the window holds: the last one sits at the bottom once the page is scrolled down. */
const WEBHOOKS = 14;

/** What can take focus in a dialog (as Dialog.tsx counts it). */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The test id of the focused element (run in the page: the test code has no DOM library). */
const focusedTestId = (page: Page) =>
  page.evaluate("document.activeElement && document.activeElement.getAttribute('data-testid')") as Promise<
    string | null
  >;
const focusInDialog = (page: Page) =>
  page.evaluate(
    "Boolean(document.activeElement && document.activeElement.closest('[role=dialog]'))",
  ) as Promise<boolean>;

async function expectInsideWindow(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(SCREEN.height);
  expect(box!.x + box!.width).toBeLessThanOrEqual(SCREEN.width);
}

describe('web app: keyboard, focus and placement', () => {
  const session = useBrowserSession({
    worker: true,
    signUp: { ...admin, workspace: 'Thumb Works' },
    context: { ...BROWSER_CONTEXT, viewport: SCREEN, permissions: ['clipboard-read', 'clipboard-write'] },
  });
  let page: Page;
  let receiver: Receiver;

  beforeAll(async () => {
    ({ page } = session);
    receiver = await new Receiver().start();
    for (let n = 1; n <= WEBHOOKS; n++)
      await appFetch(page, 'POST', '/app/api/webhooks', {
        url: `${receiver.url}/hooks/${String(n).padStart(2, '0')}`,
        events: ['record.created'],
      });
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const lastRow = () => page.getByTestId('webhook-row').last();

  it('opens the last row’s ⋯ menu upward at 1280 × 800: the whole menu is inside the window', async () => {
    await page.getByTestId('nav-webhooks').click();
    await page
      .getByTestId('webhook-row')
      .nth(WEBHOOKS - 1)
      .waitFor();
    await expect(page.getByTestId('webhook-row').count()).resolves.toBe(WEBHOOKS);
    await page.evaluate('window.scrollTo(0, document.scrollingElement.scrollHeight)');
    const button = lastRow().getByTestId('webhook-menu');
    const buttonBox = (await button.boundingBox())!;
    await button.click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    // There is no room for it below the button: it opens above, and every item can be reached.
    expect(SCREEN.height - (buttonBox.y + buttonBox.height)).toBeLessThan((await menu.boundingBox())!.height);
    await expect(menu.getAttribute('data-placement')).resolves.toBe('above');
    await expectInsideWindow(menu);
    await expectInsideWindow(menu.getByTestId('webhook-resend-failed'));
    await screenshot(page, 'row-menu-upward', { fullPage: false });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // The first row's menu, with room below, still opens downward.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByTestId('webhook-row').first().getByTestId('webhook-menu').click();
    await expect(page.getByRole('menu').getAttribute('data-placement')).resolves.toBe('below');
    await expectInsideWindow(page.getByRole('menu'));
    await page.keyboard.press('Escape');
  });

  it('moves through the menu with the arrow keys, Home and End, and gives focus back to ⋯', async () => {
    const button = page.getByTestId('webhook-row').first().getByTestId('webhook-menu');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await expect(button.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(focusedTestId(page)).resolves.toBe('webhook-show-deliveries');
    const steps: [string, string][] = [
      ['ArrowDown', 'webhook-show-health'],
      ['ArrowDown', 'webhook-menu-open'],
      ['End', 'webhook-resend-failed'],
      ['ArrowDown', 'webhook-show-deliveries'],
      ['ArrowUp', 'webhook-resend-failed'],
      ['ArrowUp', 'webhook-send-test'],
      ['Home', 'webhook-show-deliveries'],
    ];
    for (const [key, expected] of steps) {
      await page.keyboard.press(key);
      await expect(focusedTestId(page)).resolves.toBe(expected);
    }
    await expect(page.getByRole('menuitem').count()).resolves.toBe(5);

    // Escape closes it and focus is on ⋯ again.
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expect(focusedTestId(page)).resolves.toBe('webhook-menu');
    await expect(button.getAttribute('aria-expanded')).resolves.toBe('false');

    // ArrowDown on ⋯ opens it too; Enter on an item chooses it, and the dialog it opened gives focus back to ⋯.
    await page.keyboard.press('ArrowDown');
    await expect(focusedTestId(page)).resolves.toBe('webhook-show-deliveries');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('send-test-event');
    await dialog.waitFor();
    await expect(page.getByRole('menu').count()).resolves.toBe(0);
    await expect(focusInDialog(page)).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(focusedTestId(page)).resolves.toBe('webhook-menu');
  });

  it('keeps Tab and Shift+Tab inside a dialog, and gives focus back to what opened it', async () => {
    await page.getByTestId('webhook-add').click();
    const dialog = page.getByTestId('webhook-dialog');
    await dialog.waitFor();
    const controls = await dialog.evaluate(
      (element: any, selector: string) =>
        Array.from(element.querySelectorAll(selector) as ArrayLike<any>).filter(
          (control) => control.getClientRects().length > 0,
        ).length,
      FOCUSABLE,
    );
    expect(controls).toBeGreaterThan(3);
    // Round the dialog once and a few steps more, forwards and backwards: focus never leaves it, and
    // passes the close button (the first control: focus starts after it, on the first field).
    for (const key of ['Tab', 'Shift+Tab']) {
      const visited: (string | null)[] = [];
      for (let step = 0; step < controls + 3; step++) {
        await page.keyboard.press(key);
        await expect(focusInDialog(page)).resolves.toBe(true);
        visited.push(await focusedTestId(page));
      }
      expect(visited).toContain('dialog-close');
      expect(new Set(visited).size).toBeGreaterThan(3);
    }
    // The close button is the first control: Shift+Tab from it goes to the last one, Tab from there back to it.
    await dialog.getByTestId('dialog-close').focus();
    await page.keyboard.press('Shift+Tab');
    await expect(focusedTestId(page)).resolves.not.toBe('dialog-close');
    await expect(focusInDialog(page)).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(focusedTestId(page)).resolves.toBe('dialog-close');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(focusedTestId(page)).resolves.toBe('webhook-add');
  });

  it('asks before the shown-once key is gone: Escape, × and Done without “I have copied the key”', async () => {
    await page.getByTestId('nav-api-keys').click();
    await page.getByTestId('add-api-key').click();
    await page.getByTestId('add-standard-key').click();
    await page.getByTestId('key-name').fill('Thumb script');
    await page.getByTestId('key-create-submit').click();
    const dialog = page.getByTestId('created-key-dialog');
    await dialog.waitFor();
    const key = (await dialog.getByTestId('created-key-value').textContent()) ?? '';
    expect(key).not.toBe('');

    const confirm = dialog.getByTestId('created-key-confirm-close');
    for (const close of [
      () => page.keyboard.press('Escape'),
      () => dialog.getByTestId('dialog-close').click(),
      () => dialog.getByTestId('created-key-done').click(),
      () => page.mouse.click(5, 5),
    ]) {
      await close();
      await confirm.waitFor();
      // Still open, the key still shown; keeping it open is where focus is.
      await expect(dialog.getByTestId('created-key-value').textContent()).resolves.toBe(key);
      await expect(focusedTestId(page)).resolves.toBe('created-key-keep-open');
      await screenshot(page, 'created-key-confirm-close', { fullPage: false });
      await page.keyboard.press('Enter');
      await confirm.waitFor({ state: 'detached' });
      await expect(dialog.isVisible()).resolves.toBe(true);
    }

    // "Close and forget the key" closes it: the key is gone from the page.
    await dialog.getByTestId('created-key-done').click();
    await dialog.getByTestId('created-key-close-anyway').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await pageHolds(page, key)).toBe(false);

    // Ticked, Done closes at once.
    await page.getByTestId('add-api-key').click();
    await page.getByTestId('add-standard-key').click();
    await page.getByTestId('key-name').fill('Thumb script 2');
    await page.getByTestId('key-create-submit').click();
    await dialog.waitFor();
    await dialog.getByTestId('created-key-copied').check();
    await dialog.getByTestId('created-key-done').click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.getByTestId('api-key-card').count()).resolves.toBe(2);
  });

  it('offers Send test event right after a webhook is added, and it is delivered', async () => {
    const url = `${receiver.url}/hooks/new`;
    await addWebhookInBrowser(page, url, ['record.created']);
    const notice = page.getByTestId('webhooks-notice');
    await expect(notice.textContent()).resolves.toContain('added');
    await notice.getByTestId('webhooks-notice-send-test').click();
    const dialog = page.getByTestId('send-test-event');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(url);
    const before = receiver.received.length;
    await dialog.getByTestId('test-event-send').click();
    await dialog.getByTestId('test-event-sent').waitFor();
    await eventually(
      async () =>
        receiver.received.some((request, index) => index >= before && request.path === '/hooks/new'),
      'the test event reached the receiver',
      DELIVERY_TIMEOUT_MS,
    );
    const sent = receiver.received.slice(before).find((request) => request.path === '/hooks/new')!;
    expect(sent.json).toMatchObject({ event: 'record.created', data: { test: true } });
    await dialog.getByTestId('dialog-close').click();

    // Saving an existing webhook offers no test event.
    await page.locator(`[data-testid=webhook-row][data-url="${url}"]`).getByTestId('webhook-open').click();
    await page.getByTestId('webhook-description').fill('Checked by a test event');
    await page.getByTestId('webhook-save').click();
    await page.locator('[data-testid=webhooks-notice]', { hasText: 'saved' }).waitFor();
    await expect(notice.getByTestId('webhooks-notice-send-test').count()).resolves.toBe(0);
  });

  it('shows the request body indented when it is JSON, and Copy copies the exact bytes sent', async () => {
    const sent = receiver.received.find((request) => request.path === '/hooks/new')!;
    const raw = sent.rawBody.toString('utf8');
    // As sent, compact: the indented form is the page's.
    expect(raw).not.toContain('\n');
    await page.getByTestId('nav-deliveries').click();
    await page.getByTestId('delivery-test-tag').first().waitFor();
    await page.getByTestId('delivery-row').first().click();
    const details = page.getByTestId('event-details');
    await details.waitFor();
    const exchange = details.getByTestId('attempt-exchange').first();
    await exchange.locator('summary').click();
    const body = exchange.getByTestId('attempt-request-body');
    await expect(body.textContent()).resolves.toBe(JSON.stringify(JSON.parse(raw), null, 2));
    await expect(body.getAttribute('data-json')).resolves.toBe('true');

    await exchange.getByTestId('attempt-request-body-copy').click();
    await exchange.locator('[data-testid=attempt-request-body-copy]', { hasText: 'Copied' }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(raw);
    await screenshot(page, 'attempt-request-body-pretty', { fullPage: false });
  });
});
