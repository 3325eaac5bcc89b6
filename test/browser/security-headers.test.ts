import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsoleMessage, Frame, Page } from 'playwright-core';
import {
  addWebhookInBrowser,
  BROWSER_CONTEXT,
  screenshot,
  useBrowserSession,
  type BrowserSession,
} from '../helpers/browser';
import { authorizationUrl, pkce, registerClient, startRedirectListener } from '../helpers/oauth';
import type { TestApp } from '../helpers/test-app';

/**
 * Issue 24, item 7, in a real headless Chromium: a page of another site that frames the web app or
 * the OAuth consent page shows nothing of them (frame-ancestors 'none', X-Frame-Options DENY),
 * and the web app itself, the API reference and the consent flow work under the CSP with no
 * violation reported. BROWSER_SHOTS=/some/dir saves a screenshot of each step.
 */

const person = { name: 'Fran Frame', email: 'fran@example.com', password: 'framed pictures hang crooked' };

/** Every CSP violation the page reports, in the page (`securitypolicyviolation`) and on the console. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const consoleLines: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleLines.push(message.text());
  });
  // Runs in every document the page opens, before the app's own script.
  await page.addInitScript(`
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
    });
  `);
  return async () => [
    ...consoleLines,
    ...((await page.evaluate('window.__cspViolations ?? []')) as string[]),
  ];
}

/** A page of another origin (another host and port) that frames `urls`. */
async function startFramingSite(urls: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    const frames = urls
      .map((url, index) => `<iframe id="frame-${index}" src="${url}" width="600" height="400"></iframe>`)
      .join('\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><h1>Win a prize</h1>${frames}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    // `localhost`, not 127.0.0.1: another host as well as another port, so another site.
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('security headers in Chromium: no framing, the app under its CSP', () => {
  const session: BrowserSession = useBrowserSession({ signUp: person });
  let app: TestApp;
  let page: Page;

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('a page on another site that frames the web app and the consent page sees nothing of them', async () => {
    const redirect = await startRedirectListener();
    const client = await registerClient(app.baseUrl, redirect.url, 'Framed app');
    // The authorization request sends the browser to the consent page: both answers are framed.
    const authorize = authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge);
    const framed = [`${app.baseUrl}/sign-in`, `${app.baseUrl}/webhooks`, authorize];
    const site = await startFramingSite(framed);
    const attacker = await (await session.browser.newContext(BROWSER_CONTEXT)).newPage();
    const refusals: string[] = [];
    attacker.on('console', (message) => refusals.push(message.text()));
    const appRequests: string[] = [];
    attacker.on('response', (response) => {
      if (response.url().startsWith(app.baseUrl)) appRequests.push(new URL(response.url()).pathname);
    });
    try {
      await attacker.goto(site.url);
      await attacker.waitForLoadState('load');
      // Chromium asked for each page (the consent page after the authorization server's redirect)...
      expect(appRequests).toEqual(expect.arrayContaining(['/sign-in', '/webhooks', '/oauth/auth']));
      expect(appRequests.some((path) => path.startsWith('/consent/'))).toBe(true);
      // ...and showed none of them: each frame holds Chromium's error page, not the app.
      const children: Frame[] = attacker.mainFrame().childFrames();
      expect(children).toHaveLength(3);
      for (const frame of children) {
        expect(frame.url()).not.toContain(new URL(app.baseUrl).host);
        expect(await frame.content()).not.toContain('id="root"');
      }
      expect(refusals.filter((text) => /frame-ancestors 'none'/.test(text))).toHaveLength(3);
      await screenshot(attacker, 'framing-blocked');
    } finally {
      await attacker.context().close();
      await site.close();
      await redirect.close();
    }
  });

  it('the web app works under the CSP: pages, dialogs, menus and the API reference, with no violation', async () => {
    const violations = await watchCsp(page);
    await page.goto(`${app.baseUrl}/`);
    await page.getByTestId('dashboard').waitFor();
    await addWebhookInBrowser(page, 'https://example.com/csp', ['record.created']);
    // The row menu is placed with a React `style` prop (set through the CSSOM).
    await page
      .locator('[data-testid=webhook-row][data-url="https://example.com/csp"]')
      .getByTestId('webhook-menu')
      .click();
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('nav-deliveries').click();
    await page.waitForURL(/\/deliveries/);
    await page.getByTestId('nav-records').click();
    await page.waitForURL(/\/records/);
    await page.getByTestId('nav-api-keys').click();
    await page.waitForURL(/\/settings\/api-keys/);
    await page.getByTestId('nav-api-reference').click();
    await page.getByTestId('api-info').waitFor();
    await page.getByTestId('api-operation').first().waitFor();
    await screenshot(page, 'csp-api-reference', { fullPage: false });
    expect(await violations()).toEqual([]);
  });

  it('the consent page works under the CSP: allowing sends the code to the app', async () => {
    const violations = await watchCsp(page);
    const redirect = await startRedirectListener();
    try {
      const client = await registerClient(app.baseUrl, redirect.url, 'CSP test app');
      await page.goto(authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge));
      await page.getByTestId('consent-page').waitFor();
      expect(await violations()).toEqual([]);
      await page.locator('[data-testid=consent-workspace]').first().check();
      await screenshot(page, 'csp-consent');
      await page.getByTestId('consent-allow').click();
      const answer = await redirect.next();
      expect(answer).toMatchObject({ code: expect.any(String), iss: `${app.baseUrl}/oauth` });
      await page.waitForURL((url) => url.href.startsWith(redirect.url));
    } finally {
      await redirect.close();
    }
  });

  it('oidc-provider’s form_post answer still reaches the app: its script by hash, its form to the client', async () => {
    const received: Record<string, string>[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'POST') received.push(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(200, { 'content-type': 'text/plain' }).end('Posted.');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const redirectUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    const violations = await watchCsp(page);
    try {
      const client = await registerClient(app.baseUrl, redirectUri, 'Form post app');
      await page.goto(
        authorizationUrl(app.baseUrl, client, redirectUri, pkce().challenge, { response_mode: 'form_post' }),
      );
      await page.getByTestId('consent-page').waitFor();
      await page.locator('[data-testid=consent-workspace]').first().check();
      const formPost = page.waitForResponse((response) =>
        response.url().startsWith(`${app.baseUrl}/oauth/auth/`),
      );
      await page.getByTestId('consent-allow').click();
      const answer = await formPost;
      expect(await answer.headerValue('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
      await page.waitForURL(redirectUri);
      expect(received).toEqual([expect.objectContaining({ code: expect.any(String) })]);
      expect(await violations()).toEqual([]);
    } finally {
      await new Promise((resolve) => {
        receiver.close(resolve);
        receiver.closeAllConnections();
      });
    }
  });
});
