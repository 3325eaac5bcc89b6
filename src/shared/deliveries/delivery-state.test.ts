import {
  deliveryState,
  isRetrying,
  retryNowRefusal,
  stateCondition,
  DELIVERY_STATES,
  DELIVERY_STATUSES,
  type StatusAndNextAttempt,
} from './delivery-state';

describe('delivery state (Retrying apart from Failed)', () => {
  const at = '2026-03-10T14:03:27.000Z';

  it('is retrying while a Failed delivery has its next attempt scheduled, and failed once none follows', () => {
    expect(deliveryState({ status: 'failed', nextAttemptAt: at })).toBe('retrying');
    expect(deliveryState({ status: 'failed', nextAttemptAt: new Date(at) })).toBe('retrying');
    expect(deliveryState({ status: 'failed', nextAttemptAt: null })).toBe('failed');
    expect(isRetrying({ status: 'failed', nextAttemptAt: at })).toBe(true);
    expect(isRetrying({ status: 'failed', nextAttemptAt: null })).toBe(false);
  });

  it('keeps every other status as it is, whatever nextAttemptAt says (a Sending attempt keeps the old time)', () => {
    for (const status of ['pending', 'sending', 'delivered'] as const) {
      expect(deliveryState({ status, nextAttemptAt: null })).toBe(status);
      expect(deliveryState({ status, nextAttemptAt: at })).toBe(status);
      expect(isRetrying({ status, nextAttemptAt: at })).toBe(false);
    }
  });

  it('filters: retrying and failed split the spec’s Failed; the others are their status', () => {
    expect(stateCondition('retrying')).toEqual({ status: 'failed', nextAttemptScheduled: true });
    expect(stateCondition('failed')).toEqual({ status: 'failed', nextAttemptScheduled: false });
    expect(stateCondition('pending')).toEqual({ status: 'pending', nextAttemptScheduled: null });
    expect(stateCondition('delivered')).toEqual({ status: 'delivered', nextAttemptScheduled: null });
    // Each state's condition matches exactly the deliveries deliveryState names so.
    const rows: StatusAndNextAttempt[] = DELIVERY_STATUSES.flatMap((status) =>
      [null, at].map((nextAttemptAt) => ({ status, nextAttemptAt })),
    );
    for (const state of DELIVERY_STATES) {
      const { status, nextAttemptScheduled } = stateCondition(state);
      const matched = rows.filter(
        (row) =>
          row.status === status &&
          (nextAttemptScheduled === null || (row.nextAttemptAt !== null) === nextAttemptScheduled),
      );
      expect(matched.map(deliveryState).every((each) => each === state)).toBe(true);
      expect(rows.filter((row) => deliveryState(row) === state).every((row) => matched.includes(row))).toBe(
        true,
      );
    }
  });

  it('allows Retry now on a retrying delivery only, and says why otherwise', () => {
    expect(retryNowRefusal({ status: 'failed', nextAttemptAt: at })).toBeNull();
    expect(retryNowRefusal({ status: 'failed', nextAttemptAt: null })).toMatch(/failed for good.*Resend/);
    expect(retryNowRefusal({ status: 'delivered', nextAttemptAt: null })).toMatch(/delivered/);
    expect(retryNowRefusal({ status: 'pending', nextAttemptAt: null })).toMatch(/under way/);
    expect(retryNowRefusal({ status: 'sending', nextAttemptAt: at })).toMatch(/under way/);
  });
});
