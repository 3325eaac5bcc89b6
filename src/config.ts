import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { projectRoot } from './project-root';
import { passwordProblem } from './shared/credentials/password.rules';

const port = z.coerce.number().int().min(1).max(65535);
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** Every environment variable the program reads; README.md ("Configuration") documents each. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  EMBEDDED_POSTGRES_PORT: port.default(54329),
  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('crm-webhooks'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  /** The Temporal Web UI, for links to delivery workflows (embedded mode sets it itself). */
  TEMPORAL_UI_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  TEMPORAL_CLI: optionalString,
  TEMPORAL_TEST_SERVER: optionalString,
  DEPLOYMENT: z.enum(['self-hosted', 'cloud']).default('self-hosted'),
  ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
      .optional(),
  ),
  ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
  ADMIN_PASSWORD: optionalString.pipe(
    z
      .string()
      .refine((password) => !passwordProblem(password), {
        error: (issue) => passwordProblem(String(issue.input))?.message,
      })
      .optional(),
  ),
  REQUEST_BODY_LIMIT_KB: z.coerce.number().int().min(16).max(10_240).default(512),
  /**
   * Private and loopback ranges deliveries may reach (docs/deliveries.md): comma-separated CIDRs,
   * or `none`. Unset: loopback in embedded mode, nothing in external mode (src/app/start.ts).
   */
  OUTBOUND_ALLOWED_CIDRS: optionalString.pipe(
    z
      .string()
      .transform((value) => (value.trim() === 'none' ? [] : value.split(',').map((cidr) => cidr.trim())))
      .refine((cidrs) => cidrs.every((cidr) => ipaddr.isValidCIDR(cidr)), {
        error: 'must be comma-separated CIDRs (e.g. 10.0.0.0/8,::1/128) or none',
      })
      .optional(),
  ),
  /** Address of the Prometheus metrics listener (GET /metrics), apart from the API. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Its port; `none` serves no metrics. */
  METRICS_PORT: z
    .union([z.literal('none'), port])
    .default(9464)
    .transform((value) => (value === 'none' ? undefined : value)),
  // Traces (docs/observability.md#traces): exported over OTLP/HTTP only when an endpoint is set.
  /** The OTLP collector's base URL (`/v1/traces` is added), as OpenTelemetry's SDKs read it. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** The traces URL itself, used as given (instead of the base URL's `/v1/traces`). */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** The spans' `service.name`. */
  OTEL_SERVICE_NAME: z.string().min(1).default('crm-webhooks'),
  // Request quotas (docs/security.md, "Limits"): token buckets shared by every API process.
  /** Requests per second one API key or OAuth connection may make… */
  QUOTA_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(20),
  /** …and how many more it may burst to, refilled over 10 seconds. */
  QUOTA_BURST_PER_KEY: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** Requests per second one workspace may make with all its keys, connections and sessions… */
  QUOTA_PER_WORKSPACE: z.coerce.number().int().min(1).max(100_000).default(50),
  /** …and how many more it may burst to, refilled over 10 seconds. */
  QUOTA_BURST_PER_WORKSPACE: z.coerce.number().int().min(0).max(1_000_000).default(250),
  /**
   * Requests per second all the workspaces one person created (sign-up's and the web app's) may
   * make together, with every key, connection and session in them…
   */
  QUOTA_PER_PERSON: z.coerce.number().int().min(1).max(100_000).default(50),
  /** …and how many more they may burst to, refilled over 10 seconds. */
  QUOTA_BURST_PER_PERSON: z.coerce.number().int().min(0).max(1_000_000).default(250),
  /** Requests per second one signed-in session of the web app (`/app/api`) may make… */
  QUOTA_PER_SESSION: z.coerce.number().int().min(1).max(100_000).default(10),
  /** …and how many more it may burst to, refilled over 10 seconds (a page load asks for several). */
  QUOTA_BURST_PER_SESSION: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /**
   * Failed API key authentications (a value that is no key) from one client address, REST and MCP,
   * within API_KEY_FAILURE_WINDOW_SECONDS; from there the address is refused with 429 before any
   * key it sends is looked up, until the window ends (docs/security.md, "Limits").
   */
  API_KEY_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** The window of API_KEY_FAILURES_PER_ADDRESS, in seconds, counted from the first failure. */
  API_KEY_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Invitations one person may send in an hour, across all their workspaces (each is a mail)… */
  INVITATIONS_PER_INVITER_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(50),
  /** …and how many times one address may be invited in a day, from every workspace together. */
  INVITATIONS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(3),
  /**
   * Requests of one API key, session or workspace served at once by one API process (REST, MCP and
   * the web app's `/app/api`; docs/security.md).
   */
  API_CONCURRENCY_PER_WORKSPACE: z.coerce.number().int().min(1).max(1000).default(2),
  /** Requests of one workspace waiting for their turn in one API process; one more answers 429 busy. */
  API_QUEUE_PER_WORKSPACE: z.coerce.number().int().min(0).max(100_000).default(200),
  /**
   * Workspaces one person may create themselves, sign-up's first included (docs/security.md,
   * "Limits"): each has its own request quota, so this bounds how many quotas one account holds.
   * The CLI's `create-workspace` is the operator's act and is not counted.
   */
  WORKSPACES_PER_PERSON: z.coerce.number().int().min(1).max(10_000).default(5),
  /**
   * `listen` sessions one workspace may hold at once, open streams and those within their resume
   * grace (docs/listen.md#how-many-sessions-at-once): each holds a connection on an API process and
   * a webhook row, and every matching write fans out a delivery to each.
   */
  LISTEN_SESSIONS_PER_WORKSPACE: z.coerce.number().int().min(1).max(10_000).default(10),
  // Device cookies (docs/security.md, "A lockout aimed by strangers"): a browser that signed in to an
  // account before is counted apart from strangers, so their failures cannot lock it out.
  /** Days a device cookie stays valid after the sign-in that issued it (each sign-in issues a new one). */
  SIGN_IN_DEVICE_COOKIE_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** Failed sign-ins in a row with one device cookie before that cookie (only) is locked… */
  SIGN_IN_DEVICE_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  /** …for this many seconds at first, doubling with each further failure… */
  SIGN_IN_DEVICE_LOCK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** …up to this many. */
  SIGN_IN_DEVICE_MAX_LOCK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  // Delivery capacity (docs/capacity.md): what one workspace may hold.
  /**
   * Attempts one worker runs at once in the fast lane (endpoints that are not failing, in-process).
   * Each waits on a socket and holds a workflow task slot, not a core.
   */
  DELIVERY_FAST_LANE_SLOTS: z.coerce.number().int().min(1).max(20_000).default(1000),
  /**
   * An endpoint's in-flight window before it has answered (grown by deliveries, shrunk by timeouts,
   * 429s and 503s; src/shared/deliveries/endpoint-window.ts)…
   */
  DELIVERY_FAST_LANE_PER_ENDPOINT: z.coerce.number().int().min(1).max(5000).default(5),
  /** …and the most it grows to, per webhook… */
  DELIVERY_ENDPOINT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(20_000).default(500),
  /** …while one workspace's endpoints hold at most this many of their first (unproven) places… */
  DELIVERY_FAST_LANE_PER_WORKSPACE: z.coerce.number().int().min(1).max(5000).default(20),
  /** …and this many in all. */
  DELIVERY_FAST_LANE_WORKSPACE_MAX: z.coerce.number().int().min(1).max(20_000).default(500),
  /** Attempts one worker runs at once in the slow lane (failing endpoints, and overflow). */
  DELIVERY_SLOW_LANE_SLOTS: z.coerce.number().int().min(1).max(5000).default(100),
  /** Attempts per second the slow lane starts in all, across every worker (enforced by Temporal). */
  DELIVERY_SLOW_LANE_RATE: z.coerce.number().positive().max(100_000).default(20),
  /** Attempts per second the slow lane starts for one workspace (Temporal's per-fairness-key limit). */
  DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE: z.coerce.number().positive().max(100_000).default(10),
  /**
   * Fairness weights of workspaces other than 1 (Temporal task queue fairness): `<workspace id>=<weight>`
   * pairs, comma-separated. A workspace of weight 2 gets twice the share of a contended lane.
   */
  DELIVERY_FAIRNESS_WEIGHTS: optionalString.pipe(
    z
      .string()
      .transform((value, context) => {
        const weights: Record<string, number> = {};
        for (const pair of value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)) {
          const match = /^([0-9a-fA-F-]{36})=(\d+(?:\.\d+)?)$/.exec(pair);
          const weight = match ? Number(match[2]) : NaN;
          if (!match || !(weight > 0) || weight > 1000) {
            context.addIssue({
              code: 'custom',
              message: 'must be <workspace id>=<weight> pairs, e.g. 0b5e…=2',
            });
            return z.NEVER;
          }
          weights[match[1]!.toLowerCase()] = weight;
        }
        return weights;
      })
      .default({}),
  ),
  /**
   * Days each delivery attempt keeps the request it sent (headers and body) for Event Details; a
   * sweep drops them after that (docs/deliveries.md, "What is kept, for how long, and why"). The
   * delivery record and the attempt's outcome stay as long as the workspace.
   */
  DELIVERY_ATTEMPT_DETAILS_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * Seconds an endpoint may stay Failing, every attempt failing, before the service disables its
   * webhook (docs/deliveries.md#when-an-endpoint-keeps-failing). 5 days by default, as Svix; 0 never
   * disables for this (a 410 Gone still does).
   */
  WEBHOOK_AUTO_DISABLE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(365 * 86_400)
    .default(5 * 86_400),
  /**
   * The SMTP server mail goes out through (docs/mail.md): `smtp://` (STARTTLS when offered) or
   * `smtps://` (TLS from the start), with `user:password@` when it asks for them. Unset: the
   * embedded stack (`npm start`) runs a local mail catcher and sends there.
   */
  MAIL_URL: optionalString.pipe(
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  /** The sender of every message: an address, or `Name <address>`. */
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
      'must be an address or Name <address>',
    )
    .default('CRM <no-reply@localhost>'),
  /** The embedded mail catcher's SMTP port and inbox page (embedded mode without MAIL_URL). */
  MAIL_CATCHER_SMTP_PORT: port.default(1025),
  MAIL_CATCHER_UI_PORT: port.default(8025),
  /** The Mailpit binary of the mail catcher, instead of the one `npm run setup` found or built. */
  MAILPIT_BINARY: optionalString,
  /** Behind a reverse proxy: trust its X-Forwarded-Proto/-Host/-For (Koa's app.proxy). */
  TRUST_PROXY: optionalString.pipe(z.stringbool().default(false)),
});

export type Config = Omit<z.infer<typeof configSchema>, 'PUBLIC_URL' | 'DATA_DIR'> & {
  PUBLIC_URL: string;
  DATA_DIR: string;
};

/** Thrown for a wrong environment variable; `message` is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Never echoed in a configuration error: they end up in logs. */
const SECRET_VARIABLES = new Set(['ADMIN_PASSWORD', 'ENCRYPTION_KEY', 'MAIL_URL']);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const received = env[variable];
    const shown =
      received === undefined || SECRET_VARIABLES.has(variable)
        ? ''
        : ` (got ${JSON.stringify(received.slice(0, 80))})`;
    throw new ConfigError(`Invalid configuration: ${variable} ${lowerFirst(issue.message)}${shown}`);
  }
  const config = parsed.data;
  return {
    ...config,
    // Relative to the project, not the caller's working directory, so every command finds it.
    DATA_DIR: resolve(projectRoot(), config.DATA_DIR),
    PUBLIC_URL: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
