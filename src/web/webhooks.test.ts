import { describe, expect, it } from '@jest/globals';
import {
  deliveriesPathOf,
  deliveryFiltersOf,
  deliveryQueryOf,
  NO_DELIVERY_FILTERS,
  STATE_FILTER_LABELS,
} from './webhooks';

describe('the Deliveries page’s Status filter', () => {
  it('offers each state as its badge names it, Retrying apart from Failed', () => {
    expect(Object.keys(STATE_FILTER_LABELS)).toEqual([
      'pending',
      'sending',
      'delivered',
      'retrying',
      'failed',
    ]);
    expect(STATE_FILTER_LABELS.retrying).toMatch(/^Retrying/);
    expect(STATE_FILTER_LABELS.failed).toMatch(/^Failed \(no attempt follows\)/);
  });

  it('asks the server for the state, so Failed means failed for good and Retrying the rest of the spec’s Failed', () => {
    expect(deliveryQueryOf({ ...NO_DELIVERY_FILTERS, status: 'retrying' })).toEqual({ state: 'retrying' });
    expect(deliveryQueryOf({ ...NO_DELIVERY_FILTERS, status: 'failed' })).toEqual({ state: 'failed' });
    expect(deliveryQueryOf(NO_DELIVERY_FILTERS)).toEqual({});
  });

  it('keeps the choice in the page’s address, and drops a value it does not know', () => {
    expect(deliveriesPathOf({ status: 'retrying' })).toBe('/deliveries?status=retrying');
    expect(deliveryFiltersOf('?status=retrying').status).toBe('retrying');
    expect(deliveryFiltersOf('?status=failed').status).toBe('failed');
    expect(deliveryFiltersOf('?status=later').status).toBe('');
  });
});
