// What the service says of its delivery capacity at a moment: the lines of its Prometheus metrics
// endpoint about lanes (slots, attempts in flight, deliveries waiting). Absent on a revision without one.

export interface CapacitySample {
  /** `name{labels} value` lines of the delivery capacity metrics. */
  lines: string[];
}

const CAPACITY_METRICS = /^webhook_(lane_in_flight|lane_slots|deliveries_waiting)\{/;

export async function scrapeCapacity(metricsUrl: string): Promise<CapacitySample | undefined> {
  try {
    const response = await fetch(metricsUrl);
    if (!response.ok) return undefined;
    const text = await response.text();
    return { lines: text.split('\n').filter((line) => CAPACITY_METRICS.test(line)) };
  } catch {
    return undefined;
  }
}
