import { DELIVERED_EVENTS, RETIRED_EVENTS } from './event-catalog';
import { describeEvent, EVENT_DESCRIPTIONS } from './event-catalog-descriptions';

describe('event descriptions', () => {
  it('describes every event the service delivers (the catalog and the operational ones) once, in a sentence', () => {
    expect(Object.keys(EVENT_DESCRIPTIONS).sort()).toEqual([...DELIVERED_EVENTS].sort());
    for (const event of DELIVERED_EVENTS) {
      expect({ event, description: describeEvent(event) }).toEqual({
        event,
        description: expect.stringMatching(/^[A-Z].+\.$/),
      });
    }
  });

  it('says a retired event is retired, and knows nothing of an unknown name', () => {
    for (const event of RETIRED_EVENTS) expect(describeEvent(event)).toMatch(/^Retired: /);
    expect(describeEvent('record.archived')).toBeUndefined();
    expect(describeEvent('toString')).toBeUndefined();
    expect(describeEvent('')).toBeUndefined();
  });
});
