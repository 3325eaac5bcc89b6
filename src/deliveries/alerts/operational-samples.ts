import type { OperationalEventName } from '../../shared/events/event-catalog';

const SAMPLE_SINCE = '2026-11-22T00:12:03.000Z';
const SAMPLE_REASON = '503 Service Unavailable';

/**
 * The `data` of a sample operational event (a test event, the catalog's example): about a made-up
 * webhook, `webhookId`, shaped as the real ones (docs/events.md#operational-events).
 */
export function operationalSample(event: OperationalEventName, webhookId: string): Record<string, unknown> {
  const webhook = { id: webhookId, url: 'https://example.com/hooks/sample', description: 'Sample webhook' };
  const endpoint = { state: 'failing', reason: SAMPLE_REASON, since: SAMPLE_SINCE, failuresInARow: 3 };
  if (event === 'webhook.endpoint.failing') return { webhook, endpoint };
  if (event === 'webhook.endpoint.disabled') {
    return {
      webhook,
      endpoint,
      disabled: {
        reason: `Every attempt failed for 5 days (Failing since ${SAMPLE_SINCE}; latest: ${SAMPLE_REASON}).`,
        at: '2026-11-27T00:12:04.000Z',
        gone: false,
      },
    };
  }
  return {
    webhook,
    delivery: {
      id: '4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
      event: 'record.updated',
      eventId: '6d0c4b9e-2f3a-4e1b-8c7d-9a0b1c2d3e4f',
      trigger: 'event',
      attempts: 10,
      statusCode: 503,
      responseMessage: 'Service Unavailable',
    },
  };
}
