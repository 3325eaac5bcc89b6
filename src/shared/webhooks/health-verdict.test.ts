import { judgeHealth, listVerdictCounts, tallyVerdicts, type HealthFacts } from './health-verdict';

const counts = (delivered: number, failed: number, retrying = 0, inFlight = 0) => ({
  delivered,
  failed,
  retrying,
  inFlight,
});
const endpoint = (state: 'healthy' | 'degraded' | 'failing', reason: string | null = null) => ({
  state,
  reason,
});

/** An enabled webhook whose latest delivery was delivered, its endpoint healthy, 24 hours of 10 delivered. */
const well: HealthFacts = {
  enabled: true,
  health: { lastDelivery: { state: 'delivered' }, last24h: counts(10, 0), endpoint: endpoint('healthy') },
};
const sut = (health: Partial<HealthFacts['health']>, enabled = true) =>
  judgeHealth({ enabled, health: { ...well.health, ...health } });

describe('a webhook’s health in one word', () => {
  it('is healthy when its deliveries arrive and its endpoint answers well', () => {
    expect(judgeHealth(well)).toEqual({ verdict: 'healthy', why: null });
    // Nothing in the last 24 hours: the last delivery and the endpoint still speak.
    expect(sut({ last24h: counts(0, 0) })).toEqual({ verdict: 'healthy', why: null });
  });

  it('has a word of its own, not healthy, before any delivery', () => {
    expect(sut({ lastDelivery: null, last24h: counts(0, 0), endpoint: null })).toEqual({
      verdict: 'idle',
      why: null,
    });
  });

  it('does not judge a disabled webhook, whatever its past', () => {
    expect(sut({ endpoint: endpoint('failing', '503 Service Unavailable') }, false).verdict).toBe('disabled');
  });

  it('is failing when its endpoint is, with the reason', () => {
    expect(sut({ endpoint: endpoint('failing', '503 Service Unavailable') })).toEqual({
      verdict: 'failing',
      why: 'Endpoint failing: 503 Service Unavailable',
    });
  });

  it('is failing when most finished deliveries of the last 24 hours failed for good', () => {
    expect(sut({ last24h: counts(0, 2), endpoint: null, lastDelivery: { state: 'failed' } })).toEqual({
      verdict: 'failing',
      why: '24 h: 0 % delivered, 2 failed',
    });
    expect(sut({ last24h: counts(1, 2), endpoint: endpoint('degraded') }).verdict).toBe('failing');
    // Half delivered is not most failing: degraded.
    expect(sut({ last24h: counts(1, 1), endpoint: null }).verdict).toBe('degraded');
  });

  it('is only degraded when the endpoint answers well again after those failures', () => {
    expect(sut({ last24h: counts(1, 9), endpoint: endpoint('healthy') })).toEqual({
      verdict: 'degraded',
      why: '24 h: 9 failed',
    });
  });

  it('is degraded by a timing-out or refusing endpoint, a failure, a retry or a failed last delivery', () => {
    expect(sut({ endpoint: endpoint('degraded', 'Timed out: no response within 5 s') })).toEqual({
      verdict: 'degraded',
      why: 'Endpoint degraded: Timed out: no response within 5 s',
    });
    expect(sut({ last24h: counts(9, 1) })).toEqual({ verdict: 'degraded', why: '24 h: 1 failed' });
    // Retrying deliveries have not failed for good, but something is wrong.
    expect(sut({ last24h: counts(9, 0, 2) })).toEqual({ verdict: 'degraded', why: '24 h: 2 retrying' });
    expect(sut({ last24h: counts(0, 0, 3), endpoint: null }).verdict).toBe('degraded');
    expect(sut({ last24h: counts(0, 0), lastDelivery: { state: 'failed' } })).toEqual({
      verdict: 'degraded',
      why: 'Last delivery failed',
    });
  });

  it('does not let in-flight deliveries decide', () => {
    expect(sut({ last24h: counts(5, 0, 0, 40) }).verdict).toBe('healthy');
  });

  it('counts the verdicts of many webhooks, worst first, leaving out the ones no webhook has', () => {
    const countVerdicts = (verdicts: Parameters<typeof tallyVerdicts>[0]) =>
      listVerdictCounts(tallyVerdicts(verdicts));
    expect(countVerdicts(['healthy', 'failing', 'idle', 'healthy', 'degraded'])).toEqual([
      { verdict: 'failing', count: 1 },
      { verdict: 'degraded', count: 1 },
      { verdict: 'healthy', count: 2 },
      { verdict: 'idle', count: 1 },
    ]);
    expect(countVerdicts([])).toEqual([]);
  });
});
