import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { projectRoot } from '../../src/project-root';

/** Debian's Chromium, installed by scripts/setup-chromium.sh (run by `npm test`), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** A headless Chromium for the browser tests; fails with the fix when none is installed. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `No Chromium at ${executablePath}: run \`bash scripts/setup-chromium.sh\` as root ` +
        '(or `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium executable.',
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** The browser tests drive the built web app (dist/web), which `npm test` builds first. */
export function assertWebAppBuilt(): void {
  const index = join(projectRoot(), 'dist', 'web', 'index.html');
  if (!existsSync(index)) {
    throw new Error(
      `The web app is not built (${index} is missing): run \`npm run build:web\` (or \`npm run build\`).`,
    );
  }
}

/**
 * BROWSER_SHOTS=/some/dir saves a full-page screenshot of each step there (no-op otherwise);
 * `{ fullPage: false }` takes the viewport only (long pages).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const dir = process.env.BROWSER_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
}

export type BrowserPerson = { name: string; email: string; password: string; workspace?: string };

/** Signs up in the web app (a new workspace where the person is Admin) and skips the onboarding. */
export async function signUpInBrowser(page: Page, baseUrl: string, who: BrowserPerson): Promise<void> {
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByTestId('sign-up-name').fill(who.name);
  await page.getByTestId('sign-up-email').fill(who.email);
  await page.getByTestId('sign-up-password').fill(who.password);
  await page.getByTestId('sign-up-workspace').fill(who.workspace ?? `${who.name}'s workspace`);
  await page.getByTestId('sign-up-submit').click();
  await page.getByTestId('onboarding-skip').click();
  await page.getByTestId('dashboard').waitFor();
}

/** Signs in through the sign-in page and waits for the Dashboard. */
export async function signInInBrowser(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByTestId('sign-in-email').fill(email);
  await page.getByTestId('sign-in-password').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('dashboard').waitFor();
}

/** The element with this test id that belongs to the named field (`data-field-name`). */
export function byField(scope: Page | Locator, testId: string, fieldName: string): Locator {
  return scope.locator(`[data-testid="${testId}"][data-field-name="${fieldName}"]`);
}

/** Waits (up to 5 s, or `timeoutMs`) until `check` holds: for states that follow a server answer. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A call to the app's own JSON routes from inside the page, as the web app makes it: with the
 * page's session cookie, and the browser's Origin on writes. For setup steps a test does not
 * take through the UI; fails the test on anything but 2xx.
 */
export async function appFetch<T = any>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    },
    { method, path, body },
  );
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  }
  return (answer.text ? JSON.parse(answer.text) : undefined) as T;
}

/** Today in the browser's time zone, `YYYY-MM-DD` (date inputs and the lists' date filters). */
export async function browserToday(page: Page, plusDays = 0): Promise<string> {
  return page.evaluate((days) => {
    const date = new Date();
    date.setDate(date.getDate() + days);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }, plusDays);
}
