import { createLogger } from '../../logger';
import type { SendSlotsRepository } from '../store';
import { RATE_LIMIT_FRESH_MS, SendThrottle } from './send-throttle';

/** A slot table of one webhook in memory: the limit as saved, and the claims made. */
function slots(limit: number | null, waits: (number | null)[] = []) {
  const calls = { reads: 0, claims: 0 };
  const store = {
    limit,
    rateLimitOf: async () => {
      calls.reads++;
      return store.limit;
    },
    claim: async () => {
      calls.claims++;
      return waits.shift() ?? null;
    },
  };
  return { store, calls, repository: store as unknown as SendSlotsRepository };
}

describe('SendThrottle', () => {
  let now = 0;
  const sut = (repository: SendSlotsRepository) =>
    new SendThrottle(repository, createLogger('silent'), () => now);

  it('claims no slot for a webhook without a limit, and reads its limit at most once per freshness', async () => {
    const { calls, repository } = slots(null);
    const throttle = sut(repository);
    for (let i = 0; i < 10; i++) expect(await throttle.waitFor('w1')).toBe(0);
    expect(calls).toEqual({ reads: 1, claims: 0 });
    now += RATE_LIMIT_FRESH_MS;
    await throttle.waitFor('w1');
    expect(calls).toEqual({ reads: 2, claims: 0 });
  });

  it('claims a slot for each attempt of a limited webhook and answers its wait, none under a timer', async () => {
    const { calls, repository } = slots(20, [-3, 2, 50.2, 4999.5]);
    const throttle = sut(repository);
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(await throttle.waitFor('w1'));
    expect(waits).toEqual([0, 0, 51, 5000]);
    expect(calls).toEqual({ reads: 1, claims: 4 });
  });

  it('sees a limit set or removed within its freshness, and a removal at the next claim', async () => {
    const { store, calls, repository } = slots(null, [100]);
    const throttle = sut(repository);
    expect(await throttle.waitFor('w1')).toBe(0);
    store.limit = 5;
    now += RATE_LIMIT_FRESH_MS;
    expect(await throttle.waitFor('w1')).toBe(100);
    // Removed: the claim finds no limit (null), and no claim follows until the limit is read again.
    store.limit = null;
    expect(await throttle.waitFor('w1')).toBe(0);
    expect(await throttle.waitFor('w1')).toBe(0);
    expect(calls.claims).toBe(2);
  });
});
