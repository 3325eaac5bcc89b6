import { describe, expect, it } from '@jest/globals';
import {
  deliveriesPathOf,
  deliveryFiltersOf,
  deliveryQueryOf,
  eventFilterOptions,
  NO_DELIVERY_FILTERS,
  STATE_FILTER_LABELS,
} from './deliveries';

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

describe('the Deliveries page’s event filter', () => {
  it('offers the 16 catalog events, and no retired one the workspace does not have', () => {
    const sut = eventFilterOptions([], '');
    expect(sut).toHaveLength(16);
    expect(sut.slice(0, 2)).toEqual(['record.created', 'record.updated']);
    expect(sut.some((name) => name.includes('contact') || name.includes('deal.'))).toBe(false);
  });

  it('adds the retired events the workspace has, after the catalog, and only retired names', () => {
    const sut = eventFilterOptions(['deal.created', 'task.deleted', 'record.created', 'made.up'], '');
    expect(sut).toHaveLength(18);
    expect(sut.slice(16)).toEqual(['deal.created', 'task.deleted']);
  });

  it('keeps a name the address asks for, once', () => {
    expect(eventFilterOptions([], 'contact.updated').slice(16)).toEqual(['contact.updated']);
    expect(eventFilterOptions(['contact.updated'], 'contact.updated').slice(16)).toEqual(['contact.updated']);
    expect(eventFilterOptions([], 'record.created')).toHaveLength(16);
  });
});
