import { MESSAGING_EVENTS, RECORD_EVENTS, RETIRED_EVENTS } from '../shared/events/event-catalog';
import { checkWebhookEvents } from './events-rule';

const codeOf = (events: string[]) => {
  try {
    checkWebhookEvents(events);
    return undefined;
  } catch (error) {
    return (error as { issues: { customCode: string }[] }).issues.map((issue) => issue.customCode);
  }
};

describe('checkWebhookEvents', () => {
  it('accepts each of the 16 catalog events and removes duplicates', () => {
    for (const event of [...RECORD_EVENTS, ...MESSAGING_EVENTS])
      expect(checkWebhookEvents([event])).toEqual([event]);
    expect(checkWebhookEvents(['record.created', 'record.created', 'messaging.chat.updated'])).toEqual([
      'record.created',
      'messaging.chat.updated',
    ]);
  });

  it('refuses an empty list', () => {
    expect(codeOf([])).toEqual(['webhookEventsRequired']);
  });

  it.each(RETIRED_EVENTS.map((event) => [event]))('refuses the retired %s', (event) => {
    expect(codeOf([event])).toEqual(['webhookEventRetired']);
  });

  it('refuses unknown names, each with its index', () => {
    expect(codeOf(['record.created', 'record.exploded', 'RECORD.CREATED'])).toEqual([
      'webhookEventUnknown',
      'webhookEventUnknown',
    ]);
  });
});
