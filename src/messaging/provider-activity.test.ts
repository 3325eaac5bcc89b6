import { MESSAGING_EVENTS } from '../shared/events/event-catalog';
import { ACTIVITY_TYPES, eventNameOf, messagingEventData, providerActivitySchema } from './provider-activity';

describe('provider activity', () => {
  it('has one activity type per messaging event', () => {
    expect(ACTIVITY_TYPES.map(eventNameOf)).toEqual([...MESSAGING_EVENTS]);
    expect(ACTIVITY_TYPES).toHaveLength(11);
  });

  it('carries provider ids only, never content', () => {
    const activity = providerActivitySchema.parse({
      eventId: 'p-1',
      type: 'message.received',
      entityId: 'm-1',
      threadId: 't-1',
    });
    expect(messagingEventData(activity, { id: 'acc', provider: 'gmail' })).toEqual({
      entityId: 'm-1',
      threadId: 't-1',
      connectedAccountId: 'acc',
      provider: 'gmail',
    });
    expect(
      providerActivitySchema.safeParse({
        eventId: 'p',
        type: 'message.received',
        entityId: 'm',
        text: 'Hello',
      }).success,
    ).toBe(false);
    expect(
      providerActivitySchema.safeParse({ eventId: 'p', type: 'message.exploded', entityId: 'm' }).success,
    ).toBe(false);
  });
});
