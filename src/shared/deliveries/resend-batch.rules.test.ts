import { AppError } from '../app-error';
import { defaultResendSince, resendSince, RESEND_SINCE_CLOCK_SKEW_MS } from './resend-batch.rules';

const now = new Date('2026-03-10T15:30:00.000Z');
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const refusal = (error as AppError).toBody().error;
    expect(refusal).toMatchObject({ kind: 'validation', issues: [{ path: ['since'] }] });
    return refusal.issues[0]!.customCode;
  }
  throw new Error('not refused');
};

describe('resendSince', () => {
  it('accepts a past instant, with or without an offset, and now', () => {
    expect(resendSince('2026-03-09T15:30:00.000Z', now)).toEqual(new Date('2026-03-09T15:30:00.000Z'));
    expect(resendSince('2026-03-10T10:30:00-05:00', now)).toEqual(now);
    expect(resendSince(now.toISOString(), now)).toEqual(now);
  });

  it('allows a browser clock a little ahead, and refuses a future instant beyond it', () => {
    const ahead = new Date(now.getTime() + RESEND_SINCE_CLOCK_SKEW_MS).toISOString();
    expect(resendSince(ahead, now).toISOString()).toBe(ahead);
    const future = new Date(now.getTime() + RESEND_SINCE_CLOCK_SKEW_MS + 1).toISOString();
    expect(codeOf(() => resendSince(future, now))).toBe('resendSinceInFuture');
    expect(codeOf(() => resendSince('2027-01-01T00:00:00Z', now))).toBe('resendSinceInFuture');
  });

  it('refuses what is not a date-time', () => {
    expect(codeOf(() => resendSince('yesterday', now))).toBe('resendSinceInvalid');
  });

  it('defaults to 24 hours ago', () => {
    expect(defaultResendSince(now)).toEqual(new Date('2026-03-09T15:30:00.000Z'));
  });
});
