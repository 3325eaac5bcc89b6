import { createHmac } from 'node:crypto';
import { standardWebhooksKey } from '../../shared/webhooks/standard-webhooks';

/**
 * One send of a delivery in the Standard Webhooks scheme (issue 27, item 2; the scheme's
 * specification, "Signature scheme"): the message id, the time of this send in whole Unix seconds
 * and the exact body sent.
 */
export interface StandardWebhookMessage {
  /** `webhook-id`: the event id, the same on every retry and resend (docs/receivers.md says why). */
  id: string;
  /** `webhook-timestamp`: when this send was signed, in seconds since the epoch. */
  timestamp: number;
  body: string | Buffer;
}

/**
 * A Standard Webhooks signature, `v1,<base64>`: the HMAC-SHA256, keyed with `key`, of
 * `{id}.{timestamp}.{body}` over the exact body bytes sent (a string body as its UTF-8 bytes, as it
 * goes on the wire). The id and timestamp may not hold a full stop, which would let one message's
 * signed content pass for another's (the specification asks this of producers).
 */
export function signStandardWebhook(key: Uint8Array, message: StandardWebhookMessage): string {
  const { id, timestamp, body } = message;
  if (!id || id.includes('.')) throw new Error('A Standard Webhooks message id must be set and hold no "."');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new Error('A Standard Webhooks timestamp is a whole number of seconds');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');
  return `v1,${mac}`;
}

/**
 * The scheme's headers of one send: `webhook-id`, `webhook-timestamp` and, when a secret signs,
 * `webhook-signature` with one `v1,<base64>` per secret, space-separated, in the order given (the
 * current secret first, then the previous one during a rotation's grace period). The libraries
 * accept the delivery when any of them matches their key. Without a secret there is no signature
 * header, and the libraries refuse the delivery as unsigned.
 */
export function standardWebhookHeaders(
  message: StandardWebhookMessage,
  secrets: readonly string[],
): Record<string, string> {
  const headers: Record<string, string> = {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
  };
  if (secrets.length) {
    headers['webhook-signature'] = secrets
      .map((secret) => signStandardWebhook(standardWebhooksKey(secret), message))
      .join(' ');
  }
  return headers;
}
