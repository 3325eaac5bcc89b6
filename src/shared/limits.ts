// Limits and schedules of the spec in one place; each cites the line it implements.
// Pure constants: workflow code imports this module too.

/** docs/api.md#limits: "Trash retention before permanent deletion: 30 days". */
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** docs/deliveries.md#what-a-receiver-gets and docs/api.md#limits: "Up to 10 attempts in total". */
export const DELIVERY_MAX_ATTEMPTS = 10;
/** docs/deliveries.md#what-a-receiver-gets: "First retry 10 seconds after the failed attempt". */
export const DELIVERY_FIRST_RETRY_MS = 10_000;
/** docs/deliveries.md#what-a-receiver-gets: "each pause doubles (20 s, 40 s, ...) capped at one hour". */
export const DELIVERY_RETRY_CAP_MS = 60 * 60 * 1000;
/** docs/deliveries.md#what-a-receiver-gets and docs/api.md#limits: "Request timeout: 5 seconds". */
export const DELIVERY_TIMEOUT_MS = 5_000;
/**
 * docs/deliveries.md#what-a-receiver-gets: a delivery that fails before any request is recorded
 * with status code 422.
 */
export const FAILED_BEFORE_SENDING_STATUS = 422;

/** docs/api.md#limits: "Webhook description: up to 500 characters". */
export const WEBHOOK_DESCRIPTION_MAX = 500;
/** docs/api.md#limits: "Webhook secret: 1 to 256 characters". */
export const WEBHOOK_SECRET_MAX = 256;
/**
 * Secret rotation (issue 27, item 2): the previous secret keeps signing `webhook-signature` for a
 * grace period of 0 to 24 hours (default 24), as Stripe and Svix allow when rolling a secret.
 */
export const SECRET_ROTATION_GRACE_HOURS_MAX = 24;
export const SECRET_ROTATION_GRACE_HOURS_DEFAULT = 24;
/** docs/api.md#limits: "Body template: up to 8,192 characters". */
export const BODY_TEMPLATE_MAX = 8192;
/** docs/api.md#limits: "Rendered body: up to 131,072 characters (longer: failed, not sent, not retried)". */
export const RENDERED_BODY_MAX = 131072;

/**
 * "Resend failed since …" (issue 13): one batch resends at most this many Failed deliveries of a
 * webhook, oldest first; the batch says when more were left for another one.
 */
export const RESEND_BATCH_MAX = 100;

/**
 * docs/listen.md#the-temporary-endpoint: a `listen` session outlives its stream by this long, so a
 * dropped stream can resume; its endpoint stops receiving once it passes with no stream open.
 */
export const LISTEN_RESUME_GRACE_MS = 60_000;
/** docs/listen.md#the-stream: how often an open stream says it is alive (and extends its session). */
export const LISTEN_HEARTBEAT_MS = 15_000;
