import type { Page } from 'playwright-core';
import {
  appFetch,
  invitedMemberFromPage,
  screenshot,
  signInInBrowser,
  useBrowserSession,
} from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Endpoint health at a glance in a real headless Chromium: the Dashboard's chart of deliveries by
 * outcome draws bars of the seeded counts, the Webhooks list shows each webhook's health and its
 * endpoint's state (issue 23), and a webhook's Health dialog its numbers, its endpoint's state and
 * its own chart, Retrying apart from Failed everywhere (issue 27, item 1); a role without Read
 * access on API & Webhooks sees no chart. Delivery rows and
 * endpoint states are inserted at known times (another workspace's too).
 */

const admin = { name: 'Hana Health', email: 'hana@example.com', password: 'correct horse battery' };
const BUSY_URL = 'https://health.example.com/busy';
const QUIET_URL = 'https://health.example.com/quiet';
const SLOW_URL = 'https://health.example.com/slow';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const floorTo = (time: number, size: number) => new Date(Math.floor(time / size) * size).toISOString();

describe('web app: delivery health and the chart in a browser', () => {
  const session = useBrowserSession({ signUp: { ...admin, workspace: 'Healthy Hooks' } });
  let app: TestApp;
  let page: Page;
  let busy: string;
  const now = Date.now();
  // Inside whole hours, so the newest delivery is known (minutes apart) and stays in its hour.
  const oneHourAgo = Math.floor((now - HOUR) / HOUR) * HOUR + 10 * 60_000;
  const fiveHoursAgo = Math.floor((now - 5 * HOUR) / HOUR) * HOUR + 10 * 60_000;
  const threeDaysAgo = now - 3 * DAY;
  const failingSince = new Date(fiveHoursAgo + 2 * 60_000).toISOString();
  const degradedSince = new Date(oneHourAgo).toISOString();

  beforeAll(async () => {
    ({ app, page } = session);
    const workspaceId = (await appFetch(page, 'GET', '/app/api/session')).workspace.id as string;
    const make = async (url: string) =>
      (await appFetch(page, 'POST', '/app/api/webhooks', { url, events: ['messaging.chat.updated'] }))
        .id as string;
    busy = await make(BUSY_URL);
    const quiet = await make(QUIET_URL);
    const stranger = await WebClient.signUp(app.baseUrl, { email: 'stranger@example.com' });
    const strangerHook = (
      await stranger.client.ok('POST', '/app/api/webhooks', {
        url: 'https://health.example.com/theirs',
        events: ['messaging.chat.updated'],
      })
    ).id as string;
    // 'retrying': Failed, with its next attempt scheduled.
    const insert = (workspace: string, webhook: string, status: string, time: number, times = 1) =>
      app.dataSource.query(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, next_attempt_at,
                                 created_at, updated_at)
         SELECT $1, $2, gen_random_uuid(), 'messaging.chat.updated', $3, 'event',
                CASE WHEN $4 = 'retrying' THEN 'failed' ELSE $4 END,
                CASE WHEN $4 = 'retrying' THEN now() + interval '10 minutes' END, $5, $5
           FROM generate_series(1, $6)`,
        [workspace, webhook, BUSY_URL, status, new Date(time), times],
      );
    await insert(workspaceId, busy, 'delivered', oneHourAgo, 3);
    await insert(workspaceId, busy, 'failed', oneHourAgo, 1);
    await insert(workspaceId, busy, 'retrying', oneHourAgo, 1);
    await insert(workspaceId, busy, 'pending', oneHourAgo + 10 * 60_000, 1);
    await insert(workspaceId, busy, 'delivered', fiveHoursAgo, 1);
    await insert(workspaceId, quiet, 'failed', fiveHoursAgo, 2);
    await insert(workspaceId, busy, 'failed', threeDaysAgo, 4);
    // Another workspace's deliveries in the same hour: never in this workspace's chart.
    await insert(stranger.session.workspace.id, strangerHook, 'failed', oneHourAgo, 7);
    // The endpoints' states as a worker stores them: the busy one healthy again, the quiet one failing.
    const slow = await make(SLOW_URL);
    // The slow endpoint's newest (and only) delivery is retrying.
    await insert(workspaceId, slow, 'retrying', oneHourAgo + 5 * 60_000, 1);
    const state = (webhook: string, name: string, reason: string | null, since: string, failures: number) =>
      app.dataSource.query(
        `INSERT INTO endpoint_states (webhook_id, workspace_id, state, reason, since, failures_in_a_row, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now())`,
        [webhook, workspaceId, name, reason, since, failures],
      );
    await state(busy, 'healthy', null, new Date(threeDaysAgo).toISOString(), 0);
    await state(quiet, 'failing', '503 Service Unavailable', failingSince, 3);
    await state(slow, 'degraded', 'Timed out: no response within 5 s', degradedSince, 0);
  });

  const bar = (scope: Page | ReturnType<Page['getByTestId']>, start: string) =>
    scope.locator(`[data-testid=chart-bar][data-start="${start}"]`);
  const countsOf = async (locator: ReturnType<Page['locator']>) => ({
    delivered: Number(await locator.getAttribute('data-delivered')),
    failed: Number(await locator.getAttribute('data-failed')),
    retrying: Number(await locator.getAttribute('data-retrying')),
    inFlight: Number(await locator.getAttribute('data-in-flight')),
  });
  /** The drawn heights of a bar's segments, in the chart's units (the tallest bar is 100). */
  const heights = (locator: ReturnType<Page['locator']>) =>
    locator.evaluate((g) =>
      Object.fromEntries(
        Array.from(g.querySelectorAll('rect:not(.chart-slot)'), (rect: any) => [
          rect.getAttribute('class'),
          Math.round(Number(rect.getAttribute('height'))),
        ]),
      ),
    );

  it('draws the workspace’s deliveries of the last 24 hours on the Dashboard, hour by hour', async () => {
    await page.goto(`${app.baseUrl}/`);
    const panel = page.getByTestId('dashboard-deliveries');
    const chart = panel.getByTestId('deliveries-chart');
    await chart.waitFor();
    await expect(chart.getByTestId('chart-bar').count()).resolves.toBe(24);
    const recent = bar(chart, floorTo(oneHourAgo, HOUR));
    await expect(countsOf(recent)).resolves.toEqual({ delivered: 3, failed: 1, retrying: 2, inFlight: 1 });
    // The tallest bar fills the plot: 3 + 1 + 2 + 1 of 7; Retrying is a segment of its own.
    await expect(heights(recent)).resolves.toEqual({
      'chart-delivered': 43,
      'chart-failed': 14,
      'chart-retrying': 29,
      'chart-in-flight': 14,
    });
    await expect(recent.getAttribute('aria-label')).resolves.toMatch(
      /: 3 delivered, 1 failed, 2 retrying, 1 in flight$/,
    );
    await expect(recent.locator('title').textContent()).resolves.toMatch(
      /3 delivered, 1 failed, 2 retrying, 1 in flight/,
    );
    const older = bar(chart, floorTo(fiveHoursAgo, HOUR));
    await expect(countsOf(older)).resolves.toEqual({ delivered: 1, failed: 2, retrying: 0, inFlight: 0 });
    await expect(heights(older)).resolves.toEqual({ 'chart-delivered': 14, 'chart-failed': 29 });
    // Every other hour is an empty bar.
    await expect(chart.locator('[data-testid=chart-bar] rect:not(.chart-slot)').count()).resolves.toBe(6);
    await expect(chart.getByTestId('chart-total-delivered').textContent()).resolves.toBe('Delivered 4');
    await expect(chart.getByTestId('chart-total-failed').textContent()).resolves.toBe('Failed 3');
    await expect(chart.getByTestId('chart-total-retrying').textContent()).resolves.toBe('Retrying 2');
    await expect(chart.getByTestId('chart-total-inFlight').textContent()).resolves.toBe('In flight 1');
    // Over the finished ones: the retrying two count neither way.
    await expect(chart.getByTestId('chart-success-rate').textContent()).resolves.toBe('Success rate 57.1 %');
    const fill = (className: string) =>
      recent
        .locator(`rect.${className}`)
        .evaluate((element: any) => element.ownerDocument.defaultView.getComputedStyle(element).fill);
    await expect(fill('chart-retrying')).resolves.not.toBe(await fill('chart-failed'));
    await expect(fill('chart-retrying')).resolves.not.toBe(await fill('chart-in-flight'));
    await screenshot(page, 'health-01-dashboard');
  });

  it('switches to daily bars for 7 days, and shows the numbers as a table', async () => {
    const panel = page.getByTestId('dashboard-deliveries');
    await panel.getByTestId('stats-range-7d').click();
    const chart = panel.locator('[data-testid=deliveries-chart][data-range="7d"]');
    await chart.waitFor();
    await expect(chart.getByTestId('chart-bar').count()).resolves.toBe(7);
    await expect(countsOf(bar(chart, floorTo(threeDaysAgo, DAY)))).resolves.toEqual({
      delivered: 0,
      failed: 4,
      retrying: 0,
      inFlight: 0,
    });
    await expect(chart.getByTestId('chart-total-failed').textContent()).resolves.toBe('Failed 7');
    await chart.locator('summary').click();
    const cells = await chart
      .getByTestId('chart-table')
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll('td'), (cell: any) => Number(cell.textContent))),
      );
    expect(cells).toHaveLength(7);
    expect(
      cells.reduce(
        (sum, [delivered, failed, retrying, inFlight]) => sum + delivered! + failed! + retrying! + inFlight!,
        0,
      ),
    ).toBe(14);
  });

  it('shows each webhook’s health in the Webhooks list, and its numbers and chart under Health', async () => {
    await page.getByTestId('nav-webhooks').click();
    const row = page.locator(`[data-testid=webhook-row][data-url="${BUSY_URL}"]`);
    await row.waitFor();
    // Newest: the Pending delivery, ten minutes after that hour's others.
    await expect(row.getByTestId('webhook-health-last').getAttribute('data-status')).resolves.toBe('pending');
    await expect(row.getByTestId('webhook-health-rate').textContent()).resolves.toBe('24 h: 80 % delivered');
    await expect(row.getByTestId('webhook-health-retrying').textContent()).resolves.toBe('1 retrying');
    // A webhook whose newest delivery waits for its next attempt says so beside its status.
    const slowRow = page.locator(`[data-testid=webhook-row][data-url="${SLOW_URL}"]`);
    await expect(slowRow.getByTestId('webhook-health-last').getAttribute('data-state')).resolves.toBe(
      'retrying',
    );
    await expect(slowRow.getByTestId('webhook-health-last').textContent()).resolves.toMatch(
      /^Last: Failed · retrying \w{3} \d+, \d{4}/,
    );
    const quietRow = page.locator(`[data-testid=webhook-row][data-url="${QUIET_URL}"]`);
    await expect(quietRow.getByTestId('webhook-health-rate').textContent()).resolves.toBe(
      '24 h: 0 % delivered',
    );

    await row.getByTestId('webhook-menu').click();
    await page.getByTestId('webhook-show-health').click();
    const dialog = page.getByTestId('webhook-health-dialog');
    await dialog.waitFor();
    await expect(dialog.getByTestId('health-24h-rate').textContent()).resolves.toBe('80 %');
    await expect(dialog.getByTestId('health-24h-in-flight').textContent()).resolves.toBe('1');
    await expect(dialog.getByTestId('health-24h-failed').textContent()).resolves.toBe('1');
    await expect(dialog.getByTestId('health-24h-retrying').textContent()).resolves.toBe('1');
    await expect(dialog.getByTestId('health-7d-failed').textContent()).resolves.toBe('5');
    await expect(dialog.getByTestId('health-7d-rate').textContent()).resolves.toBe('44.4 %');
    const chart = dialog.getByTestId('webhook-stats').getByTestId('deliveries-chart');
    await chart.waitFor();
    // Only this webhook: the quiet one's two failures are not in its bars.
    await expect(countsOf(bar(chart, floorTo(fiveHoursAgo, HOUR)))).resolves.toEqual({
      delivered: 1,
      failed: 0,
      retrying: 0,
      inFlight: 0,
    });
    await expect(chart.getByTestId('chart-total-retrying').textContent()).resolves.toBe('Retrying 1');
    await expect(chart.getByTestId('chart-total-delivered').textContent()).resolves.toBe('Delivered 4');
    await screenshot(page, 'health-02-webhook-dialog');
    await dialog.getByTestId('dialog-close').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows each endpoint’s state in the Webhooks list and under Health: the word in its colour, why and since when', async () => {
    await page.goto(`${app.baseUrl}/webhooks`);
    const rowOf = (url: string) => page.locator(`[data-testid=webhook-row][data-url="${url}"]`);
    await rowOf(QUIET_URL).waitFor();
    const colour = (locator: ReturnType<Page['locator']>) =>
      // The test code is type-checked without the DOM library: the page's own getComputedStyle.
      locator.evaluate((element: any) => element.ownerDocument.defaultView.getComputedStyle(element).color);

    const healthy = rowOf(BUSY_URL).getByTestId('webhook-endpoint');
    await expect(healthy.getAttribute('data-state')).resolves.toBe('healthy');
    // Healthy needs no reason nor time: the word alone.
    await expect(healthy.textContent()).resolves.toBe('Endpoint: Healthy');
    await expect(rowOf(BUSY_URL).getByTestId('webhook-endpoint-reason').count()).resolves.toBe(0);

    const failing = rowOf(QUIET_URL).getByTestId('webhook-endpoint');
    await expect(failing.getAttribute('data-state')).resolves.toBe('failing');
    await expect(failing.getByTestId('endpoint-state').textContent()).resolves.toBe('Failing');
    await expect(failing.textContent()).resolves.toMatch(/^Endpoint: Failing since \S/);
    await expect(failing.locator('time').getAttribute('datetime')).resolves.toBe(failingSince);
    const reason = rowOf(QUIET_URL).getByTestId('webhook-endpoint-reason');
    await expect(reason.textContent()).resolves.toBe('503 Service Unavailable');
    await expect(reason.isVisible()).resolves.toBe(true);

    const degraded = rowOf(SLOW_URL).getByTestId('webhook-endpoint');
    await expect(degraded.getByTestId('endpoint-state').textContent()).resolves.toBe('Degraded');
    await expect(degraded.locator('time').getAttribute('datetime')).resolves.toBe(degradedSince);
    await expect(rowOf(SLOW_URL).getByTestId('webhook-endpoint-reason').textContent()).resolves.toBe(
      'Timed out: no response within 5 s',
    );
    // Each state has its own colour (the word says it too): green, amber, red.
    await expect(colour(healthy.getByTestId('endpoint-state'))).resolves.toBe('rgb(43, 138, 62)');
    await expect(colour(degraded.getByTestId('endpoint-state'))).resolves.toBe('rgb(138, 109, 0)');
    await expect(colour(failing.getByTestId('endpoint-state'))).resolves.toBe('rgb(201, 42, 42)');
    await screenshot(page, 'health-03-endpoint-states');

    await rowOf(QUIET_URL).getByTestId('webhook-menu').click();
    await page.getByTestId('webhook-show-health').click();
    const dialog = page.getByTestId('webhook-health-dialog');
    const endpoint = dialog.getByTestId('health-endpoint');
    await endpoint.waitFor();
    await expect(endpoint.getAttribute('data-state')).resolves.toBe('failing');
    await expect(endpoint.getByTestId('endpoint-state').textContent()).resolves.toBe('Failing');
    await expect(endpoint.locator('time').getAttribute('datetime')).resolves.toBe(failingSince);
    await expect(endpoint.getByTestId('health-endpoint-reason').textContent()).resolves.toBe(
      'Why: 503 Service Unavailable',
    );
    await expect(endpoint.getByTestId('health-endpoint-meaning').textContent()).resolves.toMatch(
      /^3 attempts in a row did not deliver/,
    );
    await screenshot(page, 'health-04-failing-endpoint');
    await dialog.getByTestId('dialog-close').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows no chart to a role without Read access on API & Webhooks', async () => {
    const role = await appFetch(page, 'POST', '/app/api/roles', { name: 'No webhooks' });
    const added = await invitedMemberFromPage(page, app.baseUrl, {
      email: 'nohooks@example.com',
      roleId: role.id,
    });
    const other = await session.newPage();
    await signInInBrowser(other, app.baseUrl, 'nohooks@example.com', added.password);
    await other.getByTestId('dashboard-role').waitFor();
    await expect(other.getByTestId('dashboard-deliveries').count()).resolves.toBe(0);
    await other.close();
  });
});
