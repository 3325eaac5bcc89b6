import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
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
