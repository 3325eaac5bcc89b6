// The fairness report's summary of the capacity metrics.
import { capacitySummary } from './report';

describe('capacitySummary', () => {
  it('sums the capacity metrics over workspaces and webhooks, by lane or place', () => {
    expect(
      capacitySummary([
        'webhook_lane_in_flight{lane="slow",workspace="w1",webhook="h1"} 40',
        'webhook_lane_in_flight{lane="slow",workspace="w2",webhook="h2"} 11',
        'webhook_lane_slots{lane="fast"} 200',
        'webhook_deliveries_waiting{workspace="w1",webhook="h1",where="held"} 328',
      ]),
    ).toBe('in flight slow 51; slots fast 200; waiting held 328');
  });
});
