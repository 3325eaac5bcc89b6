import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * docs/receivers.md#x-webhook-signature: "lowercase hexadecimal HMAC-SHA256 … with no prefix" (32
 * bytes).
 */
const SIGNATURE_HEX = /^[0-9a-f]{64}$/;

/**
 * The `X-Webhook-Signature` value (docs/receivers.md#x-webhook-signature;
 * docs/api.md#body-template): lowercase hex HMAC-SHA256 of the exact bytes sent, keyed with the
 * secret. A string body is signed as its UTF-8 bytes, which is how it goes on the wire; never sign
 * a re-serialized copy of the payload.
 */
export function signWebhookBody(secret: string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * What a receiver (and our tests) does with the header: recompute and compare in constant time.
 * Only 64 lowercase hex characters can match, so a malformed header is refused before comparing
 * and the compared buffers always have the same length. Never throws.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Buffer,
  header: string | undefined,
): boolean {
  if (typeof header !== 'string' || !SIGNATURE_HEX.test(header)) return false;
  try {
    const expected = Buffer.from(signWebhookBody(secret, rawBody), 'hex');
    const given = Buffer.from(header, 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  } catch {
    return false;
  }
}
