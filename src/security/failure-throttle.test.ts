import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '../shared/app-error';
import { FailureThrottle, INVALID_CREDENTIAL_REFUSAL, INVALID_LINK_REFUSAL } from './failure-throttle';

describe('FailureThrottle', () => {
  let clock: number;
  const sutWith = (perWindow = 3, windowSeconds = 60) =>
    new FailureThrottle(
      new RateLimiterMemory({ keyPrefix: 't', points: perWindow, duration: windowSeconds }),
      perWindow,
      windowSeconds,
      INVALID_CREDENTIAL_REFUSAL,
      () => clock,
    );
  beforeEach(() => {
    clock = Date.now();
  });

  const refusal = (sut: FailureThrottle, ip: string) => {
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
    const first = new FailureThrottle(shared, 2, 60, INVALID_CREDENTIAL_REFUSAL, () => clock);
    const second = new FailureThrottle(shared, 2, 60, INVALID_CREDENTIAL_REFUSAL, () => clock);
    await first.fail('203.0.113.11');
    await first.fail('203.0.113.11');
    expect(refusal(first, '203.0.113.11')).toBeInstanceOf(AppError);
    expect(refusal(second, '203.0.113.11')).toBeUndefined();
    await second.fail('203.0.113.11');
    expect(refusal(second, '203.0.113.11')).toBeInstanceOf(AppError);
  });

  it("tells a link's refusal apart from a key's: its own message and customCode", async () => {
    const sut = new FailureThrottle(
      new RateLimiterMemory({ keyPrefix: 'l', points: 1, duration: 60 }),
      1,
      60,
      INVALID_LINK_REFUSAL,
      () => clock,
    );
    await sut.fail('203.0.113.12');
    const refused = refusal(sut, '203.0.113.12')!;
    expect(refused.status).toBe(429);
    expect(refused.toBody().error.issues[0]).toMatchObject({
      customCode: 'linkThrottled',
      message: 'Too many links that are not valid were opened from this address. Try again in 60 seconds.',
    });
  });
});
