import type { Page } from 'playwright-core';
import { appFetch, screenshot, signInInBrowser, useBrowserSession } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';

/**
 * Settings → Account in a real headless Chromium against the real API: changing the password
 * (the other browser is signed out, this one stays) and creating another workspace (the session
 * moves there, the onboarding wizard greets it, nothing of the first workspace is in it). The steps
 * build on each other, in order. BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const NEW_PASSWORD = 'a brand new passphrase';

describe('web app: the account page in a browser', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('is reached from the name in the header and from Settings in the navigation', async () => {
    await page.getByTestId('current-user').click();
    await page.waitForURL(`${app.baseUrl}/settings/account`);
    await page.getByTestId('account-page').waitFor();
    await page.getByTestId('nav-dashboard').click();
    await page.getByTestId('nav-account').click();
    await page.getByTestId('change-password-form').waitFor();
    await screenshot(page, 'account-01-page');
  });

  it('changes the password: refusals clear once fixed; the other browser is signed out, this one is not', async () => {
    const elsewhere = await session.newPage();
    await signInInBrowser(elsewhere, app.baseUrl, admin.email, admin.password);

    const form = page.getByTestId('change-password-form');
    const refusal = form.getByTestId('error-message');
    await form.getByTestId('current-password').fill('not my password');
    await form.getByTestId('new-password').fill(NEW_PASSWORD);
    await form.getByTestId('new-password-confirmation').fill(NEW_PASSWORD);
    await form.getByTestId('change-password-submit').click();
    await expect(refusal.textContent()).resolves.toBe('The current password is wrong.');
    await form.getByTestId('current-password').fill(admin.password);
    await refusal.waitFor({ state: 'detached' });

    await form.getByTestId('new-password-confirmation').fill(`${NEW_PASSWORD}!`);
    await form.getByTestId('change-password-submit').click();
    await expect(refusal.textContent()).resolves.toBe('The two new passwords differ.');
    await form.getByTestId('new-password-confirmation').fill(NEW_PASSWORD);
    await form.getByTestId('change-password-submit').click();
    await form.getByTestId('password-changed').waitFor();
    await screenshot(page, 'account-02-password-changed');
    await expect(form.getByTestId('current-password').inputValue()).resolves.toBe('');

    // The other browser's session ended; this one goes on.
    await elsewhere.reload();
    await elsewhere.getByTestId('sign-in-form').waitFor();
    await elsewhere.context().close();
    await page.getByTestId('nav-dashboard').click();
    await page.getByTestId('dashboard').waitFor();

    // Signing in again takes the new password, not the old one.
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in-email').fill(admin.email);
    await page.getByTestId('sign-in-password').fill(admin.password);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('error-message').waitFor();
    await signInInBrowser(page, app.baseUrl, admin.email, NEW_PASSWORD);
  });

  it('creates another workspace: the session moves there, the wizard greets it, and it holds nothing of the first', async () => {
    await appFetch(page, 'POST', '/app/api/api-keys', { name: 'First workspace key' });
    await appFetch(page, 'POST', '/app/api/webhooks', {
      url: 'https://receiver.example/first',
      events: ['record.created'],
    });

    await page.goto(`${app.baseUrl}/settings/account`);
    await page.getByTestId('create-workspace-name').fill('Difference Engines');
    await page.getByTestId('create-workspace-submit').click();
    await page.waitForURL(`${app.baseUrl}/onboarding`);
    await expect(page.getByTestId('onboarding').locator('h1').textContent()).resolves.toBe(
      'Welcome to Difference Engines',
    );
    await page.getByTestId('onboarding-skip').click();
    await page.getByTestId('dashboard').waitFor();
    await expect(page.getByTestId('dashboard-workspace').textContent()).resolves.toBe('Difference Engines');
    await expect(page.getByTestId('dashboard-role').textContent()).resolves.toBe('Admin');
    await expect(page.getByTestId('workspace-switcher').locator('option').allTextContents()).resolves.toEqual(
      ['Analytical Engines', 'Difference Engines'],
    );

    await page.getByTestId('nav-api-keys').click();
    await page.getByTestId('api-keys-empty').waitFor();
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhooks-empty').waitFor();
    await expect(page.getByTestId('webhook-row').count()).resolves.toBe(0);
    await screenshot(page, 'account-03-new-workspace');

    // The first workspace still has its own.
    await page.getByTestId('workspace-switcher').selectOption({ label: 'Analytical Engines' });
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhook-row').waitFor();
  });
});
