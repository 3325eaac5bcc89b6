#!/usr/bin/env node
// `npm run screenshots`: pictures of the Deliveries page (also narrowed to the retrying deliveries,
// each "Failed · retrying at …"), Event Details (also of a retrying delivery, with Retry
// now), the Dashboard's webhook health and chart, the Webhooks list with each webhook's health word,
// a webhook's Health dialog, "Resend failed since…" with its preview, the lists as cards on a 390 px
// phone and a last row's ⋯ menu opening upward, a webhook the service disabled (its 410) with why and
// since when, the Notices bell's panel, the webhook dialog's rate limit (deliveries per second), and
// `npm run cli -- listen`'s output rendered as a terminal,
// taken by a real headless Chromium of the real app, so anyone can look without setting anything up.
//
// It starts the embedded stack exactly as `npm start` does (the built dist/src/main.js: PostgreSQL,
// the Temporal dev server, API and worker) in a throwaway data folder on free ports, runs a small
// webhook receiver on loopback, signs up a workspace in the browser, adds three webhooks (one that
// answers 204, one 410, one 503), writes a few records so real deliveries are made (Delivered,
// Failed, Retrying), then saves the PNGs into screenshots/ (git-ignored; SCREENSHOTS_DIR
// chooses another folder) and prints where. Everything it started is stopped at the end.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(root, 'dist', 'src', 'main.js');
const WEB = join(root, 'dist', 'web', 'index.html');
const OUT = resolve(process.env.SCREENSHOTS_DIR ?? join(root, 'screenshots'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const START_TIMEOUT_MS = 180_000;
const DELIVERY_TIMEOUT_MS = 60_000;

const log = (message) => process.stdout.write(`[screenshots] ${message}\n`);

/**
 * `npm run cli -- listen` (docs/listen.md) against the stack, as a person runs it in a terminal: its
 * output is what the picture shows. Returns its lines so far and a stop function.
 */
function startListen(baseUrl, apiKey, forwardTo) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist', 'src', 'cli.js'),
      'listen',
      '--forward-to',
      forwardTo,
      '--events',
      'record.created,record.updated',
    ],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, CRM_API_KEY: apiKey, PUBLIC_URL: baseUrl } },
  );
  const lines = [];
  let pending = '';
  const collect = (chunk) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop();
    lines.push(...parts);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((done) => child.once('exit', done));
  return {
    lines,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A terminal's look for `lines` (the command shown first): a dark page with monospace text. */
const terminalHtml = (command, lines) => {
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!doctype html><html><body style="margin:0;background:#1e1e1e">
<pre style="margin:0;padding:16px 20px;color:#d4d4d4;font:14px/1.5 'DejaVu Sans Mono',monospace;white-space:pre-wrap">${escape(
    ['$ ' + command, ...lines].join('\n'),
  )}</pre></body></html>`;
};

async function freePort() {
  const server = createNetServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

async function waitUntil(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** The receiver of the webhooks: its path says how it answers. */
async function startReceiver() {
  const statusOf = { '/ok': 204, '/gone': 410, '/busy': 503, '/hook': 200 };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.statusCode = statusOf[request.url] ?? 404;
      response.end();
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** The embedded stack in its own process group (stopped like Ctrl-C in a terminal). */
async function startStack(dataDir) {
  // The built list of the stack's port settings (main() checked that the build is there).
  const { onFreePorts } = await import(
    pathToFileURL(join(root, 'dist', 'src', 'embedded', 'stack-ports.js')).href
  );
  const ports = await onFreePorts(freePort);
  const port = Number(ports.PORT);
  const env = { ...process.env, LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...ports };
  const mailApi = `http://127.0.0.1:${ports.MAIL_CATCHER_UI_PORT}/api/v1`;
  // The stack's own mail catcher, whatever this shell points at.
  delete env.MAIL_URL;
  let output = '';
  const child = spawn(process.execPath, [MAIN], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    if (child.exitCode !== null) return;
    process.kill(-child.pid, 'SIGINT');
    await exited;
  };
  try {
    await waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error(`the stack exited early:\n${output}`);
        return output.includes('Press Ctrl-C to stop.');
      },
      'the embedded stack is up',
      START_TIMEOUT_MS,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, mailApi, stop };
}

/** The newest link of a kind mailed to `to`, read from the stack's mail catcher (Mailpit's JSON API). */
async function mailedLink(mailApi, to, pattern) {
  let link;
  await waitUntil(
    async () => {
      const search = await fetch(`${mailApi}/search?query=${encodeURIComponent(`to:"${to}"`)}`);
      for (const { ID } of (await search.json()).messages ?? []) {
        const message = await (await fetch(`${mailApi}/message/${ID}`)).json();
        link = pattern.exec(message.Text)?.[0];
        if (link) return true;
      }
      return false;
    },
    `a link mailed to ${to}`,
    DELIVERY_TIMEOUT_MS,
  );
  return link;
}

/**
 * A call to the app's JSON routes with the browser context's session cookie, and the Origin header
 * the web app's own requests carry (its writes are same-origin only).
 */
async function appFetch(page, method, path, body) {
  const url = new URL(path, page.url());
  const response = await page.request.fetch(url.href, {
    method,
    data: body,
    headers: { Origin: url.origin },
  });
  const text = await response.text();
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function seed(page, receiverUrl) {
  const webhook = (url, description, events, operationalEvents = []) =>
    appFetch(page, 'POST', '/app/api/webhooks', { url, description, events, operationalEvents });
  // It also hears of the others' trouble (their operational events, their own subscription): the
  // log then lists the 410's webhook.endpoint.disabled and webhook.delivery.exhausted, delivered.
  await webhook(
    `${receiverUrl}/ok`,
    'CRM sync',
    ['record.created', 'record.updated'],
    ['webhook.endpoint.failing', 'webhook.endpoint.disabled', 'webhook.delivery.exhausted'],
  );
  await webhook(`${receiverUrl}/gone`, 'Billing bridge (retired endpoint)', ['record.created']);
  await webhook(`${receiverUrl}/busy`, 'Partner portal', ['record.updated']);

  const deal = (await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' })).type;
  const field = (name) => deal.fields.find((candidate) => candidate.name === name).id;
  const records = [];
  for (const name of ['Acme renewal', 'Globex expansion', 'Initech pilot']) {
    records.push(
      await appFetch(page, 'POST', '/app/api/records/deal', { values: { [field('Name')]: name } }),
    );
  }
  await appFetch(page, 'PATCH', `/app/api/records/deal/${records[0].id}`, {
    values: { [field('Amount')]: 125000 },
  });
  // 3 created × 2 webhooks + 1 update × 2 webhooks.
  const expected = 8;
  await waitUntil(
    async () => {
      const { data } = await appFetch(page, 'GET', '/app/api/webhooks/deliveries?limit=50');
      return (
        data.length >= expected &&
        data.every((delivery) => delivery.status !== 'pending' && delivery.status !== 'sending')
      );
    },
    `${expected} deliveries have an outcome`,
    DELIVERY_TIMEOUT_MS,
  );
}

async function main() {
  for (const [path, fix] of [
    [MAIN, 'npm run build'],
    [WEB, 'npm run build'],
    [CHROMIUM, 'bash scripts/setup-chromium.sh (as root), or set CHROMIUM_PATH'],
  ]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`${fix}\`.`);
  }
  const cleanups = [];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch((error) => log(`cleanup: ${error}`));
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-screenshots-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root.
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    log('starting the embedded stack (PostgreSQL, Temporal, API, worker)…');
    const stack = await startStack(dataDir);
    cleanups.push(stack.stop);
    const receiver = await startReceiver();
    cleanups.push(receiver.close);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync', '--disable-quic'],
    });
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });

    log('signing up a workspace and making deliveries…');
    await page.goto(`${stack.baseUrl}/sign-up`);
    await page.getByTestId('sign-up-name').fill('Ada Admin');
    await page.getByTestId('sign-up-email').fill('ada@example.com');
    await page.getByTestId('sign-up-password').fill('correct horse battery');
    await page.getByTestId('sign-up-workspace').fill('Analytical Engines');
    await page.getByTestId('sign-up-submit').click();
    // The address is proven by the link mailed to it, as a person does (docs/mail.md).
    await page.getByTestId('check-inbox').waitFor();
    const link = new URL(
      await mailedLink(stack.mailApi, 'ada@example.com', /https?:\/\/\S+\/app\/verify-email\?token=\S+/),
    );
    // Opened where the browser signed up (the link names PUBLIC_URL, localhost), so its cookie goes along.
    await page.goto(`${stack.baseUrl}${link.pathname}${link.search}`);
    await page.getByTestId('verify-email-continue').click();
    await page.getByTestId('onboarding-skip').click();
    await page.getByTestId('dashboard').waitFor();
    await seed(page, receiver.url);

    mkdirSync(OUT, { recursive: true });
    const saved = [];
    /** The whole page; a dialog is shot as the viewport shows it (the page behind it is dimmed). */
    const shoot = async (name, fullPage = true) => {
      const path = join(OUT, `${name}.png`);
      await page.screenshot({ path, fullPage });
      saved.push(path);
    };

    await page.goto(`${stack.baseUrl}/deliveries`);
    await page.getByTestId('deliveries-total').waitFor();
    await shoot('deliveries');

    await page.goto(`${stack.baseUrl}/deliveries?status=failed`);
    await page.getByTestId('deliveries-total').waitFor();
    await shoot('deliveries-failed');
    // Failed lists the retrying deliveries too: Event Details of one that failed for good, the 410
    // (its webhook's later deliveries were not sent: the service disabled it at that answer).
    await page
      .locator('[data-testid=delivery-row][data-state=failed]')
      .filter({ hasText: '410' })
      .first()
      .getByTestId('delivery-open')
      .click();
    await page.getByTestId('event-details').getByTestId('delivery-payload').waitFor();
    await shoot('event-details', false);
    // The first attempt's request and response, opened.
    await page.getByTestId('attempt-exchange').first().locator('summary').click();
    await page.getByTestId('attempt-request-headers').first().waitFor();
    await page.getByTestId('attempt-exchange').first().scrollIntoViewIfNeeded();
    await shoot('event-details-request', false);

    // The 503 receiver's deliveries wait for their next attempt: Failed, retrying at …, and Retry now.
    await page.goto(`${stack.baseUrl}/deliveries?status=failed&state=retrying`);
    await page.locator('[data-testid=delivery-row][data-state=retrying]').first().waitFor();
    await page.getByTestId('deliveries-total').waitFor();
    await shoot('deliveries-retrying');
    await page.getByTestId('delivery-row').first().getByTestId('delivery-open').click();
    await page.getByTestId('event-details').getByTestId('delivery-retrying-notice').waitFor();
    await page.getByTestId('event-details').getByTestId('delivery-payload').waitFor();
    await shoot('event-details-retrying', false);
    await page.getByTestId('delivery-retry-now').scrollIntoViewIfNeeded();
    await shoot('event-details-retrying-actions', false);
    // Retry now: the next attempt runs at once (the receiver answers 503 again, so it retries on).
    await page.getByTestId('delivery-retry-now').click();
    await page.getByTestId('delivery-retried-notice').filter({ hasText: ' ran.' }).waitFor();
    await page.getByTestId('delivery-retried-notice').scrollIntoViewIfNeeded();
    await shoot('event-details-retried-now', false);

    await page.goto(`${stack.baseUrl}/`);
    await page.getByTestId('dashboard').waitFor();
    await page.getByTestId('dashboard-deliveries').getByTestId('deliveries-chart').waitFor();
    // The 410 webhook is failing and the 503 one degraded: listed by name under Webhook health.
    await page.getByTestId('dashboard-trouble-webhook').first().waitFor();
    await page.waitForLoadState('networkidle');
    await shoot('dashboard');

    await page.goto(`${stack.baseUrl}/webhooks`);
    await page.getByTestId('webhook-verdict').first().waitFor();
    await shoot('webhooks');
    // The 410 receiver's webhook was disabled by the service at its first attempt (issue 37): the
    // row and the dialog say why and since when, and the header's Notices bell has its notice.
    const goneRow = page.locator(`[data-testid=webhook-row][data-url="${receiver.url}/gone"]`);
    await goneRow.getByTestId('webhook-disabled-by-service').waitFor();
    await goneRow.scrollIntoViewIfNeeded();
    await shoot('webhook-disabled-by-service', false);
    await page.getByTestId('notices-bell').click();
    await page.getByTestId('notices-panel').getByTestId('notice').first().waitFor();
    await shoot('notices', false);
    await page.getByTestId('notices-bell').click();
    await goneRow.getByTestId('webhook-open').click();
    await page.getByTestId('webhook-dialog').getByTestId('webhook-disabled-by-service').waitFor();
    await shoot('webhook-dialog-disabled-by-service', false);
    await page.keyboard.press('Escape');
    await page.getByTestId('webhook-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('webhook-row').first().getByTestId('webhook-menu').click();
    await page.getByTestId('webhook-show-health').click();
    await page.getByTestId('webhook-health-dialog').getByTestId('deliveries-chart').waitFor();
    await shoot('webhook-health', false);

    // "Resend failed since…" of the 410 receiver: the time zone and how many it would resend.
    await page.keyboard.press('Escape');
    const gone = page.locator(`[data-testid=webhook-row][data-url="${receiver.url}/gone"]`);
    await gone.getByTestId('webhook-menu').click();
    await page.getByTestId('webhook-resend-failed').click();
    await page.locator('[data-testid=resend-failed-preview][data-count]').waitFor();
    await shoot('resend-failed-preview', false);
    await page.keyboard.press('Escape');

    // A phone (390 px): the lists' tables as cards.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.baseUrl}/webhooks`);
    await page.getByTestId('webhook-row').first().waitFor();
    await shoot('narrow-webhooks-cards');
    await page.goto(`${stack.baseUrl}/deliveries`);
    await page.getByTestId('delivery-row').first().waitFor();
    await shoot('narrow-deliveries-cards');

    // More webhooks than a 1280 × 800 window holds (for an event nothing here sends): the last
    // row's ⋯ menu opens upward.
    for (let n = 1; n <= 8; n++)
      await appFetch(page, 'POST', '/app/api/webhooks', {
        url: `${receiver.url}/ok?spare=${n}`,
        description: `Spare endpoint ${n}`,
        events: ['record.deleted'],
      });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${stack.baseUrl}/webhooks`);
    await page.getByTestId('webhook-row').nth(10).waitFor();
    await page.evaluate('window.scrollTo(0, document.scrollingElement.scrollHeight)');
    await page.getByTestId('webhook-row').last().getByTestId('webhook-menu').click();
    await page.locator('[role=menu][data-placement=above]').waitFor();
    await shoot('row-menu-upward', false);

    // The event catalog (issue 27, item 5): what an event announces and its sample body in the
    // webhook dialog; the API reference's events (the webhooks section) and a curl example.
    await page.goto(`${stack.baseUrl}/webhooks`);
    await page.getByTestId('webhook-add').click();
    const updated = page.locator('[data-testid=webhook-event-option][data-event="record.updated"]');
    await updated.getByTestId('webhook-event-sample-toggle').click();
    await page.getByTestId('webhook-event-sample-body').waitFor();
    await updated.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shoot('webhook-event-sample', false);
    // The rate limit (issue 37): a number of deliveries per second, with what waits for it.
    await page.getByTestId('webhook-event-sample-close').click();
    const rateLimit = page.getByTestId('webhook-dialog').getByTestId('webhook-rate-limit');
    await rateLimit.fill('20');
    await rateLimit.evaluate((element) => element.closest('label').scrollIntoView({ block: 'center' }));
    await shoot('webhook-rate-limit', false);
    await page.goto(`${stack.baseUrl}/api-reference`);
    const event = page.locator('[data-testid=api-event][data-event="record.created"]');
    await event.getByTestId('api-example').locator('summary').click();
    await event.getByTestId('api-example').evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shoot('api-reference-event-example', false);
    await event.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shoot('api-reference-event', false);
    await page
      .locator('[data-testid=api-operation][data-method=POST][data-path="/api/v1/webhooks"]')
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shoot('api-reference-curl', false);

    // `listen` (issue 37, item 2): a workspace's deliveries forwarded to a local URL, in a terminal.
    log('running listen…');
    const { value: apiKey } = await appFetch(page, 'POST', '/app/api/api-keys', { name: 'listen' });
    const listen = startListen(stack.baseUrl, apiKey, `${receiver.url}/hook`);
    cleanups.push(listen.stop);
    await waitUntil(
      () => listen.lines.some((line) => line.startsWith('Signing secret')),
      'listen opened',
      30_000,
    );
    const deal = (await appFetch(page, 'POST', '/app/api/model/read', { type: 'deal' })).type;
    const name = deal.fields.find((candidate) => candidate.name === 'Name').id;
    const made = await appFetch(page, 'POST', '/app/api/records/deal', { values: { [name]: 'Hooli trial' } });
    await appFetch(page, 'PATCH', `/app/api/records/deal/${made.id}`, {
      values: { [name]: 'Hooli trial (signed)' },
    });
    await waitUntil(
      () => listen.lines.filter((line) => line.includes('→')).length >= 2,
      'listen forwarded both',
      30_000,
    );
    await page.setViewportSize({ width: 1100, height: 260 });
    // A blank page first: the app's Content-Security-Policy would refuse the inline styles.
    await page.goto('about:blank');
    await page.setContent(
      terminalHtml(
        `npm run cli -- listen --forward-to ${receiver.url}/hook --events record.created,record.updated`,
        listen.lines,
      ),
    );
    await shoot('listen-output');

    log(`wrote ${saved.length} screenshots to ${OUT}:`);
    for (const path of saved) process.stdout.write(`  ${path}\n`);
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`[screenshots] failed: ${error.stack ?? error}\n`);
  process.exit(1);
});
