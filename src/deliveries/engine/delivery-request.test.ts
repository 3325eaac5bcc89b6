import { signWebhookBody } from '../../webhooks/signing/signature';
import { standardWebhooksKey } from '../../shared/webhooks/standard-webhooks';
import { signStandardWebhook } from '../../webhooks/signing/standard-webhooks';
import { DELIVERY_USER_AGENT, deliveryHeaders, type DeliveryRequestInput } from './delivery-request';

const input: DeliveryRequestInput = {
  deliveryId: '0b5b6f5e-7d2c-4d8e-9f10-1a2b3c4d5e6f',
  event: 'record.created',
  eventId: 'e8d2f3b0-1c7a-4f55-9d0e-6a1b2c3d4e5f',
  body: '{"event":"record.created"}',
  secrets: [],
  standardWebhooks: false,
  signedAt: new Date('2025-12-02T13:00:00.999Z'),
  customHeaders: null,
};
const TIMESTAMP = 1764680400; // 2025-12-02T13:00:00Z, the milliseconds dropped
const sign = (secret: string) =>
  signStandardWebhook(standardWebhooksKey(secret), {
    id: input.eventId,
    timestamp: TIMESTAMP,
    body: input.body,
  });

describe('deliveryHeaders', () => {
  it('sends the service’s headers and the event’s name on every POST, unsigned without a secret', () => {
    expect(Object.entries(deliveryHeaders(input))).toEqual([
      ['Content-Type', 'application/json'],
      ['User-Agent', DELIVERY_USER_AGENT],
      ['X-Service-Delivery-Id', input.deliveryId],
      ['X-Webhook-Event', 'record.created'],
    ]);
  });

  it('signs X-Webhook-Signature with the secret alone, then the custom headers', () => {
    expect(deliveryHeaders({ ...input, secrets: ['current'] })['X-Webhook-Signature']).toBe(
      signWebhookBody('current', input.body),
    );
  });

  it('signs X-Webhook-Signature with the previous secret while a rotation’s grace lasts (one signature)', () => {
    const headers = deliveryHeaders({
      ...input,
      secrets: ['current', 'previous'],
      customHeaders: { 'X-Team': 'crm' },
    });
    expect(Object.entries(headers)).toEqual([
      ['Content-Type', 'application/json'],
      ['User-Agent', DELIVERY_USER_AGENT],
      ['X-Service-Delivery-Id', input.deliveryId],
      ['X-Webhook-Event', 'record.created'],
      ['X-Webhook-Signature', signWebhookBody('previous', input.body)],
      ['X-Team', 'crm'],
    ]);
  });

  it('adds the Standard Webhooks headers when on: the event id, the send’s second, every secret’s signature', () => {
    const headers = deliveryHeaders({ ...input, secrets: ['current', 'previous'], standardWebhooks: true });
    expect(headers).toMatchObject({
      'X-Webhook-Signature': signWebhookBody('previous', input.body),
      'webhook-id': input.eventId,
      'webhook-timestamp': String(TIMESTAMP),
      'webhook-signature': `${sign('current')} ${sign('previous')}`,
    });
    expect(deliveryHeaders({ ...input, secrets: ['current'], standardWebhooks: true })).toMatchObject({
      'webhook-signature': sign('current'),
    });
  });

  it('sends the Standard Webhooks id and timestamp without a signature when there is no secret', () => {
    const headers = deliveryHeaders({ ...input, standardWebhooks: true });
    expect(headers).toMatchObject({ 'webhook-id': input.eventId, 'webhook-timestamp': String(TIMESTAMP) });
    expect(headers).not.toHaveProperty('webhook-signature');
    expect(headers).not.toHaveProperty('X-Webhook-Signature');
  });

  it('sends a custom header named like the event header instead of it', () => {
    const headers = deliveryHeaders({ ...input, customHeaders: { 'x-webhook-event': 'billing' } });
    expect(headers).not.toHaveProperty('X-Webhook-Event');
    expect(headers['x-webhook-event']).toBe('billing');
  });
});
