import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Secrets never reach them: the key header is redacted at the source. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'crm-webhooks', ...bindings },
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.cookie', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
  });
}
