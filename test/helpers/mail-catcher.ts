import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mailCatcherBinary } from '../../src/embedded/mail-catcher-binary';
import { startMailCatcher, type RunningMailCatcher } from '../../src/embedded/mail-catcher';
import { eventually } from './eventually';
import { freePort } from './ports';

interface Address {
  Name: string;
  Address: string;
}

/** A message as the catcher's JSON API returns it (`GET /api/v1/message/{id}`), the fields tests read. */
export interface CaughtMessage {
  ID: string;
  MessageID: string;
  From: Address;
  To: Address[];
  Subject: string;
  /** The text part, line breaks as sent (CRLF). */
  Text: string;
  HTML: string;
}

/** One line of `GET /api/v1/messages`, newest first. */
export interface CaughtSummary {
  ID: string;
  From: Address;
  To: Address[];
  Subject: string;
}

/** Reads a running catcher's messages through its JSON API. */
export interface MailInbox {
  /** Every message caught so far, newest first. */
  messages: () => Promise<CaughtSummary[]>;
  /** The newest message to `to` (and with `subject`, when given), waiting up to `timeoutMs` for it. */
  waitForMessage: (
    match: { to: string; subject?: string | RegExp },
    timeoutMs?: number,
  ) => Promise<CaughtMessage>;
  /** Deletes every message. */
  clear: () => Promise<void>;
}

export type TestMailCatcher = RunningMailCatcher & MailInbox;

/**
 * A real mail catcher (Mailpit, as `npm start` runs it) for one test file, on free ports, its
 * messages gone when it stops: start it in `beforeAll`, stop it in `afterAll`.
 */
export async function startTestMailCatcher(): Promise<TestMailCatcher> {
  const binary = mailCatcherBinary();
  if (!binary)
    throw new Error('No Mailpit: run `npm run setup` (it builds Mailpit with Go), or set MAILPIT_BINARY');
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-mail-'));
  const catcher = await startMailCatcher({
    binary,
    dataDir,
    smtpPort: await freePort(),
    uiPort: await freePort(),
    keepMessages: false,
  });
  return {
    ...catcher,
    ...mailInbox(catcher.apiUrl),
    async stop() {
      await catcher.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The inbox of any running catcher by its API address: one a test started, or the embedded
 * stack's (`http://127.0.0.1:$MAIL_CATCHER_UI_PORT/api/v1`).
 */
export function mailInbox(apiUrl: string): MailInbox {
  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(`${apiUrl}${path}`, init);
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const messages = async () => (await api<{ messages: CaughtSummary[] }>('/messages?limit=500')).messages;

  return {
    messages,
    async waitForMessage(match, timeoutMs = 15_000) {
      const to = match.to.toLowerCase();
      const subjectMatches = (subject: string) =>
        match.subject === undefined ||
        (typeof match.subject === 'string' ? subject === match.subject : match.subject.test(subject));
      let found: CaughtSummary | undefined;
      await eventually(
        async () => {
          found = (await messages()).find(
            (message) =>
              message.To.some((address) => address.Address.toLowerCase() === to) &&
              subjectMatches(message.Subject),
          );
          return found !== undefined;
        },
        `a message to ${match.to}${match.subject === undefined ? '' : ` with subject ${String(match.subject)}`} is caught`,
        timeoutMs,
      );
      return api<CaughtMessage>(`/message/${found!.ID}`);
    },
    async clear() {
      const response = await fetch(`${apiUrl}/messages`, { method: 'DELETE' });
      if (!response.ok) throw new Error(`DELETE /messages: ${response.status}`);
    },
  };
}
