import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { eventually, screenshot, signInInBrowser, useBrowserSession } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../helpers/web-client';

/**
 * The API reference page in a real headless Chromium: the REST API's OpenAPI document
 * (GET /api/v1/openapi.json) rendered as operations grouped by tag, with parameters, request body
 * schemas, responses with their customCodes and a curl example that works as shown, and the events
 * a webhook receives (the document's `webhooks` section), for everyone signed in.
 * BROWSER_SHOTS=/some/dir saves a screenshot of each step there.
 */

const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };

describe('web app: API reference in a browser', () => {
  const session = useBrowserSession({ worker: true, signUp: { ...admin, workspace: 'Analytical Engines' } });
  let app: TestApp;
  let page: Page;

  const operation = (method: string, path: string) =>
    page.locator(`[data-testid=api-operation][data-method=${method}][data-path="${path}"]`);

  beforeAll(() => {
    ({ app, page } = session);
  });

  it('lists POST /api/v1/webhooks with its summary, body schema and responses, and the customCode webhookNotFound', async () => {
    await page.getByTestId('nav-api-reference').click();
    await page.waitForURL(/\/api-reference$/);
    await page.getByTestId('api-info').waitFor();

    const document: any = await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json();
    // Every operation of the document, grouped by its tag.
    const count = Object.values(document.paths as Record<string, object>).reduce(
      (sum, item) => sum + Object.keys(item).length,
      0,
    );
    await expect(page.getByTestId('api-operation').count()).resolves.toBe(count);
    await expect(
      page.getByTestId('api-tag').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag'))),
    ).resolves.toEqual(
      // The document's tag order, each tag that has operations.
      (document.tags as { name: string }[])
        .map((tag) => tag.name)
        .filter((name) =>
          Object.values(document.paths as Record<string, Record<string, { tags: string[] }>>).some((item) =>
            Object.values(item).some((op) => op.tags[0] === name),
          ),
        ),
    );
    await page.locator('[data-testid=api-tag][data-tag=Webhooks]').waitFor();

    const create = operation('POST', '/api/v1/webhooks');
    await expect(create.count()).resolves.toBe(1);
    await expect(create.getByTestId('api-operation-summary').textContent()).resolves.toBe(
      document.paths['/api/v1/webhooks'].post.summary,
    );
    await expect(create.getByTestId('api-operation-summary').textContent()).resolves.toBe('Create a webhook');
    await expect(
      page
        .locator('[data-testid=api-tag][data-tag=Webhooks] [data-method=POST][data-path="/api/v1/webhooks"]')
        .count(),
    ).resolves.toBe(1);
    // The request body schema, with its required properties.
    const properties = create.locator('[data-testid=schema-property]');
    await expect(
      properties.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-property'))),
    ).resolves.toEqual(expect.arrayContaining(['url', 'events', 'secret', 'headers', 'bodyTemplate']));
    await expect(create.locator('[data-property=url] .required').count()).resolves.toBe(1);
    // Responses: the status, and the customCodes of x-custom-codes.
    await create.locator('[data-testid=api-response][data-status="201"]').waitFor();
    const refusals = create.locator(
      '[data-testid=api-response][data-status="400"] [data-testid=api-custom-code]',
    );
    await expect(refusals.allTextContents()).resolves.toEqual(
      document.paths['/api/v1/webhooks'].post.responses['400']['x-custom-codes'],
    );

    // webhookNotFound is one of the 404 customCodes of the webhook routes.
    const codes = await page.getByTestId('api-custom-code').allTextContents();
    expect(codes).toContain('webhookNotFound');
    const read = operation('GET', '/api/v1/webhooks/{id}');
    await expect(
      read
        .locator('[data-testid=api-response][data-status="404"] [data-testid=api-custom-code]')
        .allTextContents(),
    ).resolves.toContain('webhookNotFound');
    // Parameters are listed with where they go.
    await expect(
      operation('GET', '/api/v1/webhooks')
        .locator('[data-testid=api-parameter][data-name=createdFrom]')
        .count(),
    ).resolves.toBe(1);
    await screenshot(page, '31-api-reference-top', { fullPage: false });
    await create.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, '32-api-reference-create-webhook', { fullPage: false });
    await create
      .locator('[data-testid=api-response][data-status="400"]')
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, '33-api-reference-responses', { fullPage: false });
  });

  it('filters the operations, by path or customCode', async () => {
    await page.getByTestId('api-filter').fill('deliveryNotFound');
    await eventually(
      async () =>
        (await page.getByTestId('api-operation').count()) > 0 &&
        (await page
          .getByTestId('api-operation')
          .evaluateAll((items) =>
            items.every((item) => item.getAttribute('data-path')?.includes('/deliveries')),
          )),
      'only delivery operations are shown',
    );
    await page.getByTestId('api-filter').fill('no such operation at all');
    await page.getByTestId('api-no-match').waitFor();
    await page.getByTestId('api-filter').fill('');
  });

  it('shows the webhooks section: each event with its description, headers, body schema and example payload', async () => {
    const document: any = await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json();
    const events = page.getByTestId('api-event');
    await expect(
      events.evaluateAll((items) => items.map((item) => item.getAttribute('data-event'))),
    ).resolves.toEqual(Object.keys(document.webhooks));
    // The catalog's 16 events and the 3 operational ones.
    expect(Object.keys(document.webhooks)).toHaveLength(19);

    const created = page.locator('[data-testid=api-event][data-event="record.created"]');
    const entry = document.webhooks['record.created'].post;
    // The description as the document has it (its `code` spans drawn as code).
    await expect(created.locator('.operation-description').textContent()).resolves.toBe(
      entry.description.replace(/`/g, ''),
    );
    await expect(created.locator('.operation-description').textContent()).resolves.toContain(
      'A record of a configured source type is created.',
    );
    await expect(
      created
        .locator('[data-testid=api-parameter]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name'))),
    ).resolves.toEqual(
      expect.arrayContaining(['X-Webhook-Signature', 'X-Service-Delivery-Id', 'webhook-id']),
    );
    await expect(
      created
        .locator('[data-testid=schema-property]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-property'))),
    ).resolves.toEqual(expect.arrayContaining(['event', 'id', 'timestamp', 'companyId', 'actorId', 'data']));
    await expect(created.locator('[data-testid=api-response][data-status="2XX"]').count()).resolves.toBe(1);
    // The example payload, as the server builds it.
    await created.getByTestId('api-example').locator('summary').click();
    const shown = JSON.parse((await created.getByTestId('api-example-body').textContent()) ?? '');
    expect(shown).toEqual(entry.requestBody.content['application/json'].example);
    expect(shown).toMatchObject({ event: 'record.created', data: { record: { afterVersion: 1 } } });
    // Events call nothing of this service: no curl example.
    await expect(created.getByTestId('api-curl').count()).resolves.toBe(0);
    await created.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, '34-api-reference-event', { fullPage: false });

    // The filter narrows the events too; the index links to them.
    await page.getByTestId('api-filter').fill('calendar_event');
    await eventually(
      async () =>
        (await events.count()) === 1 &&
        (await events.first().getAttribute('data-event')) === 'messaging.calendar_event.changed',
      'only the calendar event is shown',
    );
    await expect(
      page.locator('.api-index a[href="#event-messaging-calendar-event-changed"]').count(),
    ).resolves.toBe(1);
    await page.getByTestId('api-filter').fill('');
    await eventually(async () => (await events.count()) === 19, 'every event is shown again');
  });

  it('shows a curl example for every operation, which works as shown once given a key', async () => {
    const document: any = await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json();
    const count = Object.values(document.paths as Record<string, object>).reduce(
      (sum, item) => sum + Object.keys(item).length,
      0,
    );
    await expect(page.locator('[data-testid=api-operation] [data-testid=api-curl]').count()).resolves.toBe(
      count,
    );

    const curlOf = async (method: string, path: string) =>
      (await operation(method, path).getByTestId('api-curl-command').textContent()) ?? '';
    const create = await curlOf('POST', '/api/v1/webhooks');
    expect(create.split(' \\\n  ').slice(0, 3)).toEqual([
      `curl -X POST '${app.baseUrl}/api/v1/webhooks'`,
      "-H 'x-api-key: YOUR_API_KEY'",
      "-H 'Content-Type: application/json'",
    ]);
    await expect(curlOf('GET', '/api/v1/webhooks/{id}/deliveries/{deliveryId}')).resolves.toBe(
      `curl '${app.baseUrl}/api/v1/webhooks/ID/deliveries/DELIVERY_ID' \\\n  -H 'x-api-key: YOUR_API_KEY'`,
    );
    await expect(curlOf('POST', '/api/v1/mcp')).resolves.toContain(
      "-H 'Accept: application/json, text/event-stream'",
    );

    // Run as shown in a real shell, with a real key in place of the placeholder.
    const owner = await WebClient.signIn(app.baseUrl, admin.email, admin.password);
    const key: string = (await owner.client.ok('POST', '/app/api/api-keys', { name: 'curl' })).value;
    // Asynchronously: the app answers from this process, which a synchronous child would block.
    const run = async (command: string) => {
      const { stdout } = await promisify(execFile)('sh', [
        '-c',
        `${command.replace('YOUR_API_KEY', key)} --silent --show-error --max-time 20 --write-out '\\n%{http_code}'`,
      ]);
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
      return { status, body: JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) };
    };
    await expect(run(await curlOf('GET', '/api/v1/me'))).resolves.toMatchObject({
      status: '200',
      body: { user: { email: admin.email } },
    });
    const example = document.paths['/api/v1/webhooks'].post.requestBody.content['application/json'].example;
    await expect(run(create)).resolves.toMatchObject({
      status: '201',
      body: { url: example.url, events: example.events },
    });
    await expect(run(await curlOf('POST', '/api/v1/mcp'))).resolves.toMatchObject({
      status: '200',
      body: { jsonrpc: '2.0', result: { tools: expect.any(Array) } },
    });

    await operation('POST', '/api/v1/webhooks').evaluate((element) =>
      element.scrollIntoView({ block: 'start' }),
    );
    await screenshot(page, '35-api-reference-curl', { fullPage: false });
  });

  it('is offered to every signed-in member, whatever the role', async () => {
    const owner = await WebClient.signIn(app.baseUrl, admin.email, admin.password);
    const role = await owner.client.ok('POST', '/app/api/roles', { name: 'No API' });
    const added = await addMemberByInvitation(app.baseUrl, owner.client, {
      email: 'nora@example.com',
      name: 'Nora',
      roleId: role.id,
    });
    const other = await session.newPage();
    await signInInBrowser(other, app.baseUrl, 'nora@example.com', added.password);
    await expect(other.getByTestId('nav-webhooks').count()).resolves.toBe(0);
    await other.getByTestId('nav-api-reference').click();
    await other
      .locator('[data-testid=api-operation][data-method=POST][data-path="/api/v1/webhooks"]')
      .waitFor();
    await other.context().close();
  });
});
