import { describe, expect, it } from '@jest/globals';
import { bucketDeliveriesPath, troubleDeliveries } from './delivery-links';
import { deliveryFiltersOf, deliveryQueryOf } from './deliveries';

const NO_WINDOW = { delivered: 0, failed: 0, retrying: 0, inFlight: 0, successRate: null };
const health = (failed: number, retrying: number) => ({
  lastDelivery: null,
  last24h: { ...NO_WINDOW, failed, retrying },
  last7d: NO_WINDOW,
  endpoint: null,
});
const queryOf = (path: string) => deliveryQueryOf(deliveryFiltersOf(new URL(path, 'http://x').search));

describe('a chart bar’s deliveries', () => {
  it('asks the server for the bucket’s hour, its series and its webhook', () => {
    const path = bucketDeliveriesPath({
      start: '2026-11-26T14:00:00.000Z',
      end: '2026-11-26T15:00:00.000Z',
      state: 'failed',
      webhookId: '0b5c7a52-52f4-4a3c-9b8e-0a0b6c4f9d11',
    });
    expect(queryOf(path)).toEqual({
      state: 'failed',
      webhookId: '0b5c7a52-52f4-4a3c-9b8e-0a0b6c4f9d11',
      createdFrom: '2026-11-26T14:00:00.000Z',
      // The server's createdTo is inclusive: the next bucket's first instant stays out.
      createdTo: '2026-11-26T14:59:59.999Z',
    });
  });

  it('asks for every state of the bucket for the whole bar, and for every webhook on the Dashboard', () => {
    const path = bucketDeliveriesPath({ start: '2026-11-20T00:00:00.000Z', end: '2026-11-21T00:00:00.000Z' });
    expect(queryOf(path)).toEqual({
      createdFrom: '2026-11-20T00:00:00.000Z',
      createdTo: '2026-11-20T23:59:59.999Z',
    });
  });
});

describe('a webhook in trouble’s deliveries', () => {
  const now = new Date('2026-11-26T14:35:00.000Z');
  const webhook = (failed: number, retrying: number) => ({
    id: '0b5c7a52-52f4-4a3c-9b8e-0a0b6c4f9d11',
    health: health(failed, retrying),
  });

  it('shows its failures for good of the 24 hours its health was judged on', () => {
    const { path, label } = troubleDeliveries(webhook(3, 2), now);
    expect(label).toBe('Show 3 failed');
    expect(queryOf(path)).toEqual({
      webhookId: '0b5c7a52-52f4-4a3c-9b8e-0a0b6c4f9d11',
      state: 'failed',
      createdFrom: '2026-11-25T15:00:00.000Z',
    });
  });

  it('shows its retrying ones when none failed for good, else all of its deliveries', () => {
    expect(troubleDeliveries(webhook(0, 2), now).label).toBe('Show 2 retrying');
    expect(queryOf(troubleDeliveries(webhook(0, 2), now).path).state).toBe('retrying');
    expect(troubleDeliveries(webhook(0, 0), now)).toEqual({
      path: '/deliveries?webhookId=0b5c7a52-52f4-4a3c-9b8e-0a0b6c4f9d11',
      label: 'Show deliveries',
    });
  });
});
