import { signWebhookBody } from '../../webhooks/signing/signature';

export const DELIVERY_USER_AGENT = 'crm-webhooks/1.0 (+webhooks)';

/**
 * The headers of a delivery (architecture.md, "delivery headers"), in order: Content-Type,
 * User-Agent, X-Service-Delivery-Id, X-Webhook-Signature when there is a secret (lowercase hex
 * HMAC-SHA256 of the exact body sent), then the custom headers.
 */
export function deliveryHeaders(input: {
  deliveryId: string;
  body: string;
  secret: string | null;
  customHeaders: Record<string, string> | null;
}): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': DELIVERY_USER_AGENT,
    'X-Service-Delivery-Id': input.deliveryId,
  };
  if (input.secret) headers['X-Webhook-Signature'] = signWebhookBody(input.secret, input.body);
  return { ...headers, ...(input.customHeaders ?? {}) };
}
