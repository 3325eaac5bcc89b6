import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '../shared/app-error';
import { InvalidKeyThrottle } from './invalid-key-throttle';

describe('InvalidKeyThrottle', () => {
  let clock: number;
  const sutWith = (perWindow = 3, windowSeconds = 60) =>
    new InvalidKeyThrottle(
      new RateLimiterMemory({ keyPrefix: 't', points: perWindow, duration: windowSeconds }),
      perWindow,
      windowSeconds,
      () => clock,
    );
  beforeEach(() => {
    clock = Date.now();
  });

  const refusal = (sut: InvalidKeyThrottle, ip: string) => {
    try {
      sut.check(ip);
      return undefined;
    } catch (error) {
      return error as AppError;
    }
  };

  it('lets an address through until its failures reach the budget, then refuses it with 429 apiKeyThrottled', async () => {
    const sut = sutWith(3);
    for (let i = 0; i < 2; i++) {
      expect(refusal(sut, '203.0.113.7')).toBeUndefined();
      await sut.fail('203.0.113.7');
    }
    expect(refusal(sut, '203.0.113.7')).toBeUndefined();
    await sut.fail('203.0.113.7');
    const refused = refusal(sut, '203.0.113.7')!;
    expect(refused.status).toBe(429);
    expect(refused.toBody()).toEqual({
      error: {
        kind: 'rate_limit',
        issues: [
          {
            code: 'rate_limit',
            path: [],
            message: expect.stringMatching(
              /^Too many requests with an API key or access token that is not valid/,
            ),
            customCode: 'apiKeyThrottled',
          },
        ],
        retryable: true,
      },
    });
    expect(refused.options.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.options.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('holds other addresses apart, and counts an IPv6 /64 as one address', async () => {
    const sut = sutWith(2);
    await sut.fail('2001:db8:1:2::a');
    await sut.fail('2001:db8:1:2::b');
    expect(refusal(sut, '2001:db8:1:2:ffff::1')).toBeInstanceOf(AppError);
    expect(refusal(sut, '2001:db8:1:3::a')).toBeUndefined();
    expect(refusal(sut, '203.0.113.8')).toBeUndefined();
    // An IPv4-mapped address is its IPv4 address.
    await sut.fail('::ffff:203.0.113.9');
    await sut.fail('203.0.113.9');
    expect(refusal(sut, '203.0.113.9')).toBeInstanceOf(AppError);
  });

  it('lets the address in again when the window ends', async () => {
    const sut = sutWith(1, 60);
    await sut.fail('203.0.113.10');
    expect(refusal(sut, '203.0.113.10')).toBeInstanceOf(AppError);
    clock += 60_001;
    expect(refusal(sut, '203.0.113.10')).toBeUndefined();
  });

  it('blocks an address that another process pushed over the budget at its first failure here', async () => {
    const shared = new RateLimiterMemory({ keyPrefix: 's', points: 2, duration: 60 });
    const first = new InvalidKeyThrottle(shared, 2, 60, () => clock);
    const second = new InvalidKeyThrottle(shared, 2, 60, () => clock);
    await first.fail('203.0.113.11');
    await first.fail('203.0.113.11');
    expect(refusal(first, '203.0.113.11')).toBeInstanceOf(AppError);
    expect(refusal(second, '203.0.113.11')).toBeUndefined();
    await second.fail('203.0.113.11');
    expect(refusal(second, '203.0.113.11')).toBeInstanceOf(AppError);
  });
});
