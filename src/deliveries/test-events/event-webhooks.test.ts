import { DELIVERED_EVENTS } from '../../shared/events/event-catalog';
import { EVENT_WEBHOOKS } from './event-webhooks.openapi';

describe('the OpenAPI webhooks section', () => {
  it('has one entry per event the service delivers (the catalog and the operational events), each with an example its envelope schema accepts', () => {
    expect(EVENT_WEBHOOKS.map((spec) => spec.event)).toEqual([...DELIVERED_EVENTS]);
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
