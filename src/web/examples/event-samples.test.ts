import { describe, expect, it } from '@jest/globals';
import { eventSamplesOf } from './event-samples';

const entry = (example?: unknown) => ({
  post: {
    operationId: 'x',
    summary: 'x',
    tags: ['Events'],
    responses: {},
    requestBody: { required: true, content: { 'application/json': { schema: {}, example } } },
  },
});

describe('event samples', () => {
  it('takes each event’s body example from the webhooks section, by event name', () => {
    const sut = eventSamplesOf({
      webhooks: {
        'record.created': entry({ event: 'record.created', data: {} }),
        'messaging.chat.deleted': entry({ event: 'messaging.chat.deleted' }),
        'no.example': entry(),
      },
    });
    expect([...sut.entries()]).toEqual([
      ['record.created', { event: 'record.created', data: {} }],
      ['messaging.chat.deleted', { event: 'messaging.chat.deleted' }],
    ]);
  });

  it('is empty for a document without webhooks', () => {
    expect(eventSamplesOf({}).size).toBe(0);
  });
});
