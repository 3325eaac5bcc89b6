// Standard Webhooks (https://www.standardwebhooks.com/; issue 27, item 2): the signing scheme a
// webhook can turn on beside the spec's X-Webhook-Signature, so receivers can verify deliveries
// with the published `standardwebhooks` libraries. Pure: the dialog shows the value a receiver
// gives those libraries; the server signs in src/webhooks/signing/standard-webhooks.ts.
import { ValidationError } from '../app-error';

/** The scheme's three headers, as its specification writes them (HTTP header names ignore case). */
export const STANDARD_WEBHOOKS_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * The event-type header of every delivery (the event's name, e.g. `record.created`), so a receiver
 * can route before it parses the body, and can with a body template too. The spec names no such
 * header; a custom header of the same name, saved by the webhook's owner, is sent instead.
 */
export const EVENT_TYPE_HEADER = 'X-Webhook-Event';

/**
 * How far `webhook-timestamp` may lie from the receiver's clock, either way, before the libraries
 * refuse the delivery ("Message timestamp too old"/"too new"): their fixed 5 minutes. A delivery
 * replayed later than that is refused even though its signature is right.
 */
export const STANDARD_WEBHOOKS_TOLERANCE_SECONDS = 5 * 60;

/** The prefix the scheme gives a serialized HMAC secret (`whsec_` + base64 of the key's bytes). */
export const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';

/**
 * What a receiver passes to the `standardwebhooks` libraries (`new Webhook(…)`) for a webhook's
 * secret: `whsec_` + the standard base64 of the secret's UTF-8 bytes. The scheme's HMAC key is those
 * bytes — the same key X-Webhook-Signature is computed with —, and the libraries take a key as
 * `whsec_<base64>`, decoding the base64 back to the bytes. So a secret such as `my secret` (any
 * 1 to 256 characters, not only base64) is given to the library as `whsec_bXkgc2VjcmV0`.
 */
export function standardWebhooksSecret(secret: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(secret)) binary += String.fromCharCode(byte);
  return `${STANDARD_WEBHOOKS_SECRET_PREFIX}${btoa(binary)}`;
}

const standardNames: ReadonlySet<string> = new Set(STANDARD_WEBHOOKS_HEADERS);

/**
 * The custom header names (as saved) that a webhook with Standard Webhooks on cannot have: the
 * scheme's own headers, in any letter case. Another value there would break or forge the scheme.
 */
export function standardHeaderCollisions(headerNames: readonly string[]): string[] {
  return headerNames.filter((name) => standardNames.has(name.toLowerCase()));
}

/**
 * Refuses (400 validation, `webhookHeaderNameReserved` at `['headers', name]`) custom headers named
 * like the scheme's own on a webhook with Standard Webhooks on: reserved while it is on, as the
 * spec's own headers are always (docs/api.md#custom-headers).
 */
export function checkStandardHeaderNames(headerNames: readonly string[]): void {
  const collisions = standardHeaderCollisions(headerNames);
  if (!collisions.length) return;
  throw new ValidationError(
    collisions.map((name) => ({
      code: 'invalid',
      path: ['headers', name],
      message: `${name} is a Standard Webhooks header, sent by the service while standardWebhooks is on: choose another name.`,
      customCode: 'webhookHeaderNameReserved',
    })),
  );
}
