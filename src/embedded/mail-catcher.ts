import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { spawnServerChild } from './server-child';

export interface MailCatcherOptions {
  /** The Mailpit binary (src/embedded/mail-catcher-binary.ts). */
  binary: string;
  /** Its log (`mailpit.log`) goes here, and its messages when `keepMessages` is set. */
  dataDir: string;
  smtpPort: number;
  uiPort: number;
  /** Keep the messages in `mailpit.db` across restarts; otherwise they go with the process. */
  keepMessages: boolean;
  onProgress?: (message: string) => void;
}

export interface RunningMailCatcher {
  /** What the mailer sends to (MAIL_URL): plain SMTP on loopback, no credentials. */
  smtpUrl: string;
  /** The inbox page, for people. */
  inboxUrl: string;
  /** Its JSON API (`/messages`, `/message/{id}`, `/search`), for tests. */
  apiUrl: string;
  ports: () => number[];
  stop: () => Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

/**
 * Runs Mailpit (docs/mail.md): an SMTP server that keeps every message it is given instead of
 * delivering it, with an inbox page and a JSON API on `uiPort`. Both listen on loopback only.
 */
export async function startMailCatcher(options: MailCatcherOptions): Promise<RunningMailCatcher> {
  mkdirSync(options.dataDir, { recursive: true });
  const logFile = join(options.dataDir, 'mailpit.log');
  options.onProgress?.(
    `Starting the mail catcher (Mailpit) on port ${options.smtpPort} (inbox ${options.uiPort})…`,
  );
  const server = spawnServerChild(
    'The mail catcher',
    options.binary,
    [
      '--smtp',
      `127.0.0.1:${options.smtpPort}`,
      '--listen',
      `127.0.0.1:${options.uiPort}`,
      ...(options.keepMessages ? ['--database', join(options.dataDir, 'mailpit.db')] : []),
      '--label',
      'CRM webhooks',
      // No network beyond loopback: no release check, no reverse DNS of the sender.
      '--disable-version-check',
      '--smtp-disable-rdns',
      '--quiet',
    ],
    logFile,
  );
  // Stops the readiness polls once the child has exited, so nothing is left polling a dead port.
  const gone = new AbortController();
  server.child.once('exit', () => gone.abort());
  try {
    await Promise.race([waitUntilServing(options.smtpPort, options.uiPort, gone.signal), server.exited]);
  } catch (error) {
    await server.stop(5_000);
    throw error;
  }

  return {
    smtpUrl: `smtp://127.0.0.1:${options.smtpPort}`,
    inboxUrl: `http://localhost:${options.uiPort}/`,
    apiUrl: `http://127.0.0.1:${options.uiPort}/api/v1`,
    ports: () => [options.smtpPort, options.uiPort],
    stop: () => server.stop(5_000),
  };
}

/** Ready when the inbox answers /readyz and the SMTP port greets. */
async function waitUntilServing(smtpPort: number, uiPort: number, gone: AbortSignal): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline && !gone.aborted) {
    try {
      const ready = await fetch(`http://127.0.0.1:${uiPort}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (!ready.ok) throw new Error(`/readyz answered ${ready.status}`);
      await smtpGreeting(smtpPort);
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(
    `The mail catcher did not answer within ${START_TIMEOUT_MS / 1000} s: ${String(lastError)}`,
  );
}

function smtpGreeting(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2000, () => socket.destroy(new Error('no SMTP greeting within 2 s')));
    socket.once('error', reject);
    socket.once('data', (chunk) => {
      socket.end('QUIT\r\n');
      if (String(chunk).startsWith('220')) resolve();
      else reject(new Error(`unexpected SMTP greeting: ${String(chunk).trim()}`));
    });
  });
}
