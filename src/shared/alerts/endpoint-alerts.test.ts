import { endpointAlertsOf, periodText } from './endpoint-alerts';
import type { AttemptSignal, EndpointState } from '../deliveries/endpoint-state';

const DAY = 86_400_000;
const state = (name: EndpointState['state'], since: number, failures = 3): EndpointState => ({
  state: name,
  reason: '503 Service Unavailable',
  since,
  failuresInARow: failures,
});
const status = (statusCode: number): AttemptSignal => ({
  kind: 'answered',
  delivered: false,
  statusCode,
  message: String(statusCode),
  durationMs: 10,
});

describe('endpointAlertsOf', () => {
  test('turning Failing is announced; staying Failing within the period is not', () => {
    expect(endpointAlertsOf(state('degraded', 0, 2), state('failing', 10), status(503), 10, 5 * DAY)).toEqual(
      [{ kind: 'failing' }],
    );
    expect(endpointAlertsOf(state('failing', 10), state('failing', 10), status(503), DAY, 5 * DAY)).toEqual(
      [],
    );
  });

  test('Failing for the whole period disables; 0 never disables for time', () => {
    const alerts = endpointAlertsOf(state('failing', 0), state('failing', 0), status(503), 5 * DAY, 5 * DAY);
    expect(alerts).toEqual([expect.objectContaining({ kind: 'disable', gone: false })]);
    expect(alerts[0]).toMatchObject({ reason: expect.stringContaining('5 days') });
    expect(endpointAlertsOf(state('failing', 0), state('failing', 0), status(503), 50 * DAY, 0)).toEqual([]);
  });

  test('a 410 disables at once, even on the first failure and with the period off', () => {
    const healthy = { state: 'healthy' as const, reason: null, since: 0, failuresInARow: 0 };
    expect(endpointAlertsOf(healthy, state('degraded', 5, 1), status(410), 5, 0)).toEqual([
      expect.objectContaining({ kind: 'disable', gone: true }),
    ]);
  });

  test('a timeout or no response is never a 410', () => {
    const timeout: AttemptSignal = { kind: 'timeout', message: 'Timed out' };
    expect(endpointAlertsOf(state('failing', 0), state('failing', 0), timeout, 1, 5 * DAY)).toEqual([]);
  });
});

test('periodText says the setting as people do', () => {
  expect(periodText(5 * DAY)).toBe('5 days');
  expect(periodText(3_600_000)).toBe('1 hour');
  expect(periodText(3_000)).toBe('3 seconds');
});
