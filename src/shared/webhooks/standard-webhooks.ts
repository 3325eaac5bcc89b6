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

/** The random bytes of a secret the service generates: 32, inside the scheme's 24 to 64. */
export const GENERATED_SECRET_BYTES = 32;

const base64Of = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** A key in the scheme's serialized form: `whsec_` + the standard base64 of its bytes. */
const serializedKey = (key: Uint8Array): string => `${STANDARD_WEBHOOKS_SECRET_PREFIX}${base64Of(key)}`;

/**
 * A new webhook secret from `random` bytes (Generate, Rotate, a create without one), in the form
 * the `standardwebhooks` libraries take as it is: `whsec_` + base64, 50 characters for 32 bytes
 * (inside the 1 to 256 characters of any secret).
 */
export function newWebhookSecret(random: Uint8Array): string {
  if (random.length !== GENERATED_SECRET_BYTES)
    throw new RangeError(`${GENERATED_SECRET_BYTES} bytes make a secret`);
  return serializedKey(random);
}

/** Standard base64 with its padding (the round trip below refuses stray bits). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key of the scheme for a webhook secret (docs/receivers.md#the-secret-you-give-the-library). A secret
 * of the scheme's serialized form — `whsec_` + canonical base64, as the service generates them and
 * as Svix hands them out — stands for the bytes it encodes, which is how the libraries read it; any
 * other secret (any 1 to 256 characters a user chose) is keyed with its UTF-8 bytes.
 * X-Webhook-Signature keeps the spec's rule whatever the form: keyed with the secret's characters,
 * `whsec_` included.
 */
export function standardWebhooksKey(secret: string): Uint8Array {
  const encoded = secret.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX)
    ? secret.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length)
    : '';
  // Canonical only (padding where due, no stray bits), so that the key serializes back to the secret.
  if (encoded && BASE64.test(encoded)) {
    const key = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    if (base64Of(key) === encoded) return key;
  }
  return new TextEncoder().encode(secret);
}

/**
 * What a receiver passes to the `standardwebhooks` libraries (`new Webhook(…)`) for a webhook's
 * secret: a generated (`whsec_…`) secret as it is; a secret of another form as `whsec_` + the
 * standard base64 of its UTF-8 bytes, so `my secret` is given as `whsec_bXkgc2VjcmV0`.
 */
export const standardWebhooksSecret = (secret: string): string => serializedKey(standardWebhooksKey(secret));

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
