import { EVENT_TYPE_HEADER } from '../../shared/webhooks/standard-webhooks';
import { legacySignatureSecret } from '../../webhooks/signing/secret-rotation';
import { signWebhookBody } from '../../webhooks/signing/signature';
import { standardWebhookHeaders } from '../../webhooks/signing/standard-webhooks';

export const DELIVERY_USER_AGENT = 'crm-webhooks/1.0 (+webhooks)';

/** What one send of a delivery is made of. */
export interface DeliveryRequestInput {
  deliveryId: string;
  /** The event's name: X-Webhook-Event. */
  event: string;
  /** The event's id, the same on every retry and resend: the Standard Webhooks `webhook-id`. */
  eventId: string;
  body: string;
  /**
   * The secrets that sign this send: the current one first, then, during a rotation's grace period,
   * the previous one. Empty when the webhook has no secret.
   */
  secrets: readonly string[];
  /** The webhook's Standard Webhooks setting. */
  standardWebhooks: boolean;
  /** When this send is signed: `webhook-timestamp`, in whole seconds. */
  signedAt: Date;
  customHeaders: Record<string, string> | null;
}

/**
 * The headers of a delivery (docs/deliveries.md#what-a-receiver-gets), in order: Content-Type,
 * User-Agent, X-Service-Delivery-Id, X-Webhook-Event (the event's name; a custom header of that
 * name is sent instead), X-Webhook-Signature when there is a secret (lowercase hex HMAC-SHA256 of
 * the exact body sent; the spec's header holds one signature: during a rotation's grace the
 * replaced secret's, see `legacySignatureSecret`), the Standard Webhooks headers when the webhook
 * has them on (`webhook-signature` signed with every secret that signs now), then the custom headers.
 */
export function deliveryHeaders(input: DeliveryRequestInput): Record<string, string> {
  const custom = input.customHeaders ?? {};
  const eventHeader = EVENT_TYPE_HEADER.toLowerCase();
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': DELIVERY_USER_AGENT,
    'X-Service-Delivery-Id': input.deliveryId,
  };
  if (!Object.keys(custom).some((name) => name.toLowerCase() === eventHeader))
    headers[EVENT_TYPE_HEADER] = input.event;
  const legacySecret = legacySignatureSecret(input.secrets);
  if (legacySecret) headers['X-Webhook-Signature'] = signWebhookBody(legacySecret, input.body);
  if (input.standardWebhooks) {
    Object.assign(
      headers,
      standardWebhookHeaders(
        { id: input.eventId, timestamp: Math.floor(input.signedAt.getTime() / 1000), body: input.body },
        input.secrets,
      ),
    );
  }
  return { ...headers, ...custom };
}
