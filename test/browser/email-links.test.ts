import type { Page } from 'playwright-core';
import { RESET_PASSWORD_SUBJECT } from '../../src/identity/email-proof/proof-mail';
import { INVITATION_SUBJECT_PREFIX } from '../../src/identity/invitations/invitation-mail';
import { inviteInBrowser, signInInBrowser, useBrowserSession } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';

/**
 * Sign-up → e-mailed link → verified (the session helper does it in the page), invited → accepted,
 * and password reset, in a real headless Chromium against the real API and its real mail catcher
 * (issue 34): every link is read from the caught mail and opened as a person would.
 */
const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const invitee = { name: 'Ivy Invitee', email: 'ivy@example.com', password: 'violet ink orchard 5' };

describe('web app: the e-mailed links in a browser', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;

  const linkIn = (text: string, page: string) => {
    const match = new RegExp(`https?://\\S+/app/${page}\\?token=\\S+`).exec(text);
    if (!match) throw new Error(`no ${page} link in ${text}`);
    return match[0];
  };

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('an Admin invites an address on the Members page; the person accepts by the link with a password of their own', async () => {
    // The old address of the invitations leads to the Members page, where they are now.
    await page.goto(`${app.baseUrl}/settings/invitations`);
    await page.waitForURL(`${app.baseUrl}/settings/members`);
    await page.getByTestId('members-table').waitFor();
    await page.getByTestId('invitations-empty').waitFor();
    await page.getByTestId('invite-member').click();
    await page.getByTestId('invite-email').fill(invitee.email);
    await page.getByTestId('invite-submit').click();
    await page.locator(`[data-testid=invitation-row][data-email="${invitee.email}"]`).waitFor();
    await expect(
      page.locator(`[data-testid=member-row][data-email="${invitee.email}"]`).count(),
    ).resolves.toBe(0);

    const mail = await app.mail.waitForMessage({
      to: invitee.email,
      subject: new RegExp(INVITATION_SUBJECT_PREFIX),
    });
    const other = await session.newPage();
    await other.goto(linkIn(mail.Text, 'accept-invitation'));
    await other.getByTestId('invitation-summary').getByText('Analytical Engines').waitFor();
    await other.getByTestId('invitation-name').fill(invitee.name);
    await other.getByTestId('invitation-password').fill(invitee.password);
    await other.getByTestId('invitation-create').click();
    await other.getByTestId('dashboard').waitFor();

    await page.reload();
    await page.getByTestId('invitations-empty').waitFor();
    await page.locator(`[data-testid=member-row][data-email="${invitee.email}"]`).waitFor();
  });

  it('an Admin revokes a pending invitation on the Members page; its mailed link stops working', async () => {
    const email = 'revoked@example.com';
    const link = await inviteInBrowser(page, app.baseUrl, { email });
    const row = page.locator(`[data-testid=invitation-row][data-email="${email}"]`);
    await row.getByTestId('invitation-revoke').click();
    await row.waitFor({ state: 'detached' });
    await page.getByTestId('invitations-empty').waitFor();

    const other = await session.newPage();
    await other.goto(link);
    await other
      .getByTestId('error-message')
      .getByText('This invitation is not valid any more', { exact: false })
      .waitFor();
    await expect(other.getByTestId('invitation-summary').count()).resolves.toBe(0);
    await other.context().close();
    await expect(page.locator(`[data-testid=member-row][data-email="${email}"]`).count()).resolves.toBe(0);
  });

  it('forgot password: the mailed link sets a new one, and signing in with it works', async () => {
    const other = await session.newPage();
    await other.goto(`${app.baseUrl}/sign-in`);
    await other.getByTestId('forgot-password-link').click();
    await other.getByTestId('forgot-password-email').fill(invitee.email);
    await other.getByTestId('forgot-password-submit').click();
    await other.getByTestId('forgot-password-sent').waitFor();

    const mail = await app.mail.waitForMessage({ to: invitee.email, subject: RESET_PASSWORD_SUBJECT });
    await other.goto(linkIn(mail.Text, 'reset-password'));
    await other.getByTestId('reset-password-new').fill('a brand new passphrase 8');
    await other.getByTestId('reset-password-submit').click();
    await other.getByTestId('reset-password-done').waitFor();
    await signInInBrowser(other, app.baseUrl, invitee.email, 'a brand new passphrase 8');
  });
});
