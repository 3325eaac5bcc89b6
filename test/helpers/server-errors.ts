import pino, { type Logger } from 'pino';

/**
 * The errors a test app logged (an unexpected error is answered 500 with no body), kept per base
 * URL so that a helper given only the URL can say why a request answered 500: a forgotten
 * migration then reads "column Webhook.note does not exist", not a bare "answered 500".
 */
const logged = new Map<string, string[]>();

/** A logger at `error` that keeps what it logs for `serverErrorsAt` (the test app's own, unless TEST_LOG_LEVEL). */
export function recordingLogger(): {
  logger: Logger;
  keepFor: (baseUrl: string) => void;
  forget: () => void;
} {
  const lines: string[] = [];
  let url: string | undefined;
  const logger = pino(
    { level: 'error', base: undefined },
    {
      write: (line: string) => {
        lines.push(describe(line));
        if (lines.length > 20) lines.shift();
      },
    },
  );
  return {
    logger,
    keepFor: (baseUrl) => {
      url = baseUrl;
      logged.set(baseUrl, lines);
    },
    forget: () => {
      if (url) logged.delete(url);
    },
  };
}

/** One logged error as a line: its message and the error's stack. */
function describe(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { stack?: string; message?: string } };
    return `${entry.msg ?? ''}: ${entry.err?.stack ?? entry.err?.message ?? line}`;
  } catch {
    return line;
  }
}

/** What the app at `baseUrl` logged as errors, newest last, for a failure message ('' when none). */
export function serverErrorsAt(baseUrl: string): string {
  const lines = logged.get(new URL(baseUrl).origin) ?? [];
  return lines.length ? `\nThe server logged:\n${lines.slice(-3).join('\n')}` : '';
}

/** The failure of a request that answered `status`: with the server's logged errors on a 500. */
export function unexpectedStatus(baseUrl: string, request: string, status: number, body: string): Error {
  return new Error(`${request} answered ${status}: ${body}${status >= 500 ? serverErrorsAt(baseUrl) : ''}`);
}
