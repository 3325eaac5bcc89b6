import type { Page } from 'playwright-core';
import { eventually, screenshot, signInInBrowser, useBrowserSession } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * The API reference page in a real headless Chromium: the REST API's OpenAPI document
 * (GET /api/v1/openapi.json) rendered as operations grouped by tag, with parameters, request body
 * schemas and responses with their customCodes, for everyone signed in.
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

  it('is offered to every signed-in member, whatever the role', async () => {
    const owner = await WebClient.signIn(app.baseUrl, admin.email, admin.password);
    const role = await owner.client.ok('POST', '/app/api/roles', { name: 'No API' });
    const added = await owner.client.ok('POST', '/app/api/members', {
      email: 'nora@example.com',
      name: 'Nora',
      roleId: role.id,
    });
    const other = await session.newPage();
    await signInInBrowser(other, app.baseUrl, 'nora@example.com', added.temporaryPassword);
    await expect(other.getByTestId('nav-webhooks').count()).resolves.toBe(0);
    await other.getByTestId('nav-api-reference').click();
    await other
      .locator('[data-testid=api-operation][data-method=POST][data-path="/api/v1/webhooks"]')
      .waitFor();
    await other.context().close();
  });
});
