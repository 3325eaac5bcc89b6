import { describe, expect, it } from '@jest/globals';
import {
  deliveriesPathOf,
  deliveryFiltersOf,
  deliveryQueryOf,
  eventFilterOptions,
  NO_DELIVERY_FILTERS,
  secretRotationOf,
  STATE_FILTER_LABELS,
  WebhookDraftError,
} from './webhooks';

describe('secretRotationOf', () => {
  it('sends the new secret and the grace period in whole hours', () => {
    expect(secretRotationOf('new-secret', '24')).toEqual({ secret: 'new-secret', graceHours: 24 });
    expect(secretRotationOf('new-secret', ' 0 ')).toEqual({ secret: 'new-secret', graceHours: 0 });
  });

  it.each([
    ['an empty secret', '', '24', 'Enter the new secret'],
    ['a secret over 256 characters', 's'.repeat(257), '24', 'at most 256'],
    ['25 hours', 'new-secret', '25', 'from 0 to 24'],
    ['a negative grace', 'new-secret', '-1', 'from 0 to 24'],
    ['a fraction of an hour', 'new-secret', '1.5', 'from 0 to 24'],
    ['an empty grace', 'new-secret', '', 'from 0 to 24'],
  ])('refuses %s', (_label, secret, hours, message) => {
    expect(() => secretRotationOf(secret, hours)).toThrow(WebhookDraftError);
    expect(() => secretRotationOf(secret, hours)).toThrow(message);
  });
});

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
