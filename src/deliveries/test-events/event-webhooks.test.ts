import { WEBHOOK_EVENTS } from '../../shared/events/event-catalog';
import { EVENT_WEBHOOKS } from './event-webhooks.openapi';

describe('the OpenAPI webhooks section', () => {
  it('has one entry per selectable event, each with an example its envelope schema accepts', () => {
    expect(EVENT_WEBHOOKS.map((spec) => spec.event)).toEqual([...WEBHOOK_EVENTS]);
    for (const spec of EVENT_WEBHOOKS) {
      expect({ event: spec.event, parsed: spec.envelope.safeParse(spec.example).success }).toEqual({
        event: spec.event,
        parsed: true,
      });
      expect(spec.example).toMatchObject({ event: spec.event });
      expect(JSON.stringify(spec.example)).not.toContain('"test"');
    }
  });
});
