import { classifyAttempt, hasAttemptsLeft, retryDelayMs } from './retry-policy';

describe('retryDelayMs', () => {
  it('waits 10 s after the first failure, doubling, capped at one hour', () => {
    const pauses = Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1) / 1000);
    expect(pauses).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560]);
    expect(retryDelayMs(10)).toBe(3600_000); // 5,120 s capped
    expect(retryDelayMs(30)).toBe(3600_000);
  });

  it('puts the tenth attempt about 1.5 hours after the first', () => {
    const total = Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(total / 60_000).toBeCloseTo(85.2, 1); // plus up to nine 5 s requests: about 1.5 h
  });
});

describe('classifyAttempt', () => {
  const response = (statusCode: number) => classifyAttempt({ kind: 'response', statusCode, statusText: '' });

  it.each([200, 201, 202, 204, 299])('%i delivers', (code) => expect(response(code)).toBe('delivered'));
  it.each([500, 502, 503, 504, 599, 408, 425, 429])('%i is retried', (code) =>
    expect(response(code)).toBe('retryable'),
  );
  it.each([400, 401, 403, 404, 409, 410, 422, 451, 301, 302, 100])('%i is not retried', (code) =>
    expect(response(code)).toBe('final'),
  );

  it('retries timeouts and network errors', () => {
    expect(classifyAttempt({ kind: 'timeout' })).toBe('retryable');
    expect(classifyAttempt({ kind: 'network', message: 'ECONNREFUSED' })).toBe('retryable');
  });

  it('does not retry a destination the outbound guard refused', () => {
    expect(classifyAttempt({ kind: 'refused', message: 'Not sent: …' })).toBe('final');
  });

  it('allows ten attempts in total', () => {
    expect(hasAttemptsLeft(9)).toBe(true);
    expect(hasAttemptsLeft(10)).toBe(false);
  });
});
