import { describe, expect, it } from '@jest/globals';
import {
  deliveriesPathOf,
  deliveryFiltersOf,
  deliveryQueryOf,
  eventFilterOptions,
  FAILED_STATE_LABELS,
  NO_DELIVERY_FILTERS,
  statusFilterOf,
  STATUS_LABELS,
} from './deliveries';

describe('the Deliveries page’s Status filter', () => {
  it('offers the spec’s four statuses, and narrows Failed to the retrying ones or those failed for good', () => {
    expect(Object.keys(STATUS_LABELS)).toEqual(['pending', 'sending', 'delivered', 'failed']);
    expect(Object.values(STATUS_LABELS)).toEqual(['Pending', 'Sending', 'Delivered', 'Failed']);
    expect(Object.keys(FAILED_STATE_LABELS)).toEqual(['retrying', 'failed']);
    expect(FAILED_STATE_LABELS.retrying).toMatch(/^Retrying \(next attempt scheduled\)/);
    expect(FAILED_STATE_LABELS.failed).toMatch(/^Failed for good \(no attempt follows\)/);
  });

  it('asks the server for the spec’s status, so Failed includes the retrying ones; a narrowed Failed for its state', () => {
    expect(deliveryQueryOf({ ...NO_DELIVERY_FILTERS, status: 'failed' })).toEqual({ status: 'failed' });
    expect(deliveryQueryOf({ ...NO_DELIVERY_FILTERS, status: 'delivered' })).toEqual({ status: 'delivered' });
    expect(deliveryQueryOf({ ...NO_DELIVERY_FILTERS, status: 'failed', state: 'retrying' })).toEqual({
      state: 'retrying',
    });
    expect(deliveryQueryOf({ ...NO_DELIVERY_FILTERS, status: 'failed', state: 'failed' })).toEqual({
      state: 'failed',
    });
    expect(deliveryQueryOf(NO_DELIVERY_FILTERS)).toEqual({});
  });

  it('lists each state of the chart and the Dashboard under its status', () => {
    expect(statusFilterOf('retrying')).toEqual({ status: 'failed', state: 'retrying' });
    expect(statusFilterOf('failed')).toEqual({ status: 'failed', state: 'failed' });
    expect(statusFilterOf('delivered')).toEqual({ status: 'delivered', state: '' });
  });

  it('keeps the choice in the page’s address, and drops a value it does not know', () => {
    expect(deliveriesPathOf({ status: 'failed' })).toBe('/deliveries?status=failed');
    expect(deliveriesPathOf(statusFilterOf('retrying'))).toBe('/deliveries?status=failed&state=retrying');
    expect(deliveryFiltersOf('?status=failed&state=retrying')).toMatchObject({
      status: 'failed',
      state: 'retrying',
    });
    expect(deliveryFiltersOf('?status=failed')).toMatchObject({ status: 'failed', state: '' });
    expect(deliveryFiltersOf('?status=later&state=soon')).toMatchObject({ status: '', state: '' });
    // A state is one of Failed's: it brings its status.
    expect(deliveryFiltersOf('?state=failed')).toMatchObject({ status: 'failed', state: 'failed' });
    expect(deliveryFiltersOf('?status=delivered&state=retrying')).toMatchObject({
      status: 'failed',
      state: 'retrying',
    });
  });

  it('reads a link made when Retrying was a status of its own as the retrying Failed ones', () => {
    expect(deliveryFiltersOf('?status=retrying')).toMatchObject({ status: 'failed', state: 'retrying' });
  });
});

describe('the Deliveries page’s event filter', () => {
  it('offers the 16 catalog events and the 3 operational ones, and no retired one the workspace does not have', () => {
    const sut = eventFilterOptions([], '');
    expect(sut).toHaveLength(19);
    expect(sut.slice(0, 2)).toEqual(['record.created', 'record.updated']);
    expect(sut.some((name) => name.includes('contact') || name.includes('deal.'))).toBe(false);
  });

  it('adds the retired events the workspace has, after the catalog, and only retired names', () => {
    const sut = eventFilterOptions(['deal.created', 'task.deleted', 'record.created', 'made.up'], '');
    expect(sut).toHaveLength(21);
    expect(sut.slice(19)).toEqual(['deal.created', 'task.deleted']);
  });

  it('keeps a name the address asks for, once', () => {
    expect(eventFilterOptions([], 'contact.updated').slice(19)).toEqual(['contact.updated']);
    expect(eventFilterOptions(['contact.updated'], 'contact.updated').slice(19)).toEqual(['contact.updated']);
    expect(eventFilterOptions([], 'record.created')).toHaveLength(19);
  });
});
