import type { QuotaDecision, RequestQuota } from '../../security/request-quota';
import { REFUSAL_HOLD_MAX_MS, RequestQuotas, refusalHoldMs } from './request-quotas';

/** A quota that answers each consume with the next decision given. */
function quota(name: string, decisions: Partial<QuotaDecision>[]): RequestQuota {
  const base = { name, limit: 20, windowSeconds: 1, remaining: 5, resetSeconds: 1, allowed: true };
  return {
    name,
    limits: { perSecond: 20, burst: 0 },
    consume: () => Promise.resolve({ ...base, ...decisions.shift() }),
  } as unknown as RequestQuota;
}

describe('refusalHoldMs', () => {
  const refused = (msBeforeNext: number) =>
    ({ name: 'credential', allowed: false, msBeforeNext }) as QuotaDecision;

  it('holds a refusal half the time to the next window, so a client retrying at once is still refused', () => {
    expect(refusalHoldMs(refused(300))).toBe(150);
    expect(refusalHoldMs(refused(1))).toBe(0);
  });

  it('never holds longer than the cap', () => {
    expect(refusalHoldMs(refused(10_000))).toBe(REFUSAL_HOLD_MAX_MS);
  });
});

describe('RequestQuotas', () => {
  it('answers an allowed request at once, and holds a refusal before answering it', async () => {
    const holds: number[] = [];
    const quotas = new RequestQuotas(
      quota('credential', [{}, { allowed: false, remaining: 0, retryAfterSeconds: 1, msBeforeNext: 400 }]),
      quota('workspace', [{}]),
      quota('person', []),
      (ms) => {
        holds.push(ms);
        return Promise.resolve();
      },
    );
    expect((await quotas.check({ credential: 'k', workspace: 'w' })).refusal).toBeUndefined();
    expect(holds).toEqual([]);
    const refused = await quotas.check({ credential: 'k', workspace: 'w' });
    expect(refused.refusal?.issues[0]?.customCode).toBe('requestQuotaExceeded');
    expect(holds).toEqual([200]);
  });

  it("counts a request against the creator's quota only within the credential's and the workspace's, and names it in the policy", async () => {
    const consumed: string[] = [];
    const counting = (name: string, decisions: Partial<QuotaDecision>[]) => {
      const inner = quota(name, decisions);
      return {
        ...inner,
        consume: (key: string) => {
          consumed.push(`${name}:${key}`);
          return inner.consume(key);
        },
      } as unknown as RequestQuota;
    };
    const quotas = new RequestQuotas(
      counting('credential', [{}, {}, { allowed: false, msBeforeNext: 10 }]),
      counting('workspace', [{}, {}]),
      counting('person', [{ allowed: false, remaining: 0, retryAfterSeconds: 1, msBeforeNext: 10 }]),
      () => Promise.resolve(),
    );
    // A workspace made from the CLI has no creator: two quotas, as before.
    const cli = await quotas.check({ credential: 'k', workspace: 'w', creator: null });
    expect(cli.refusal).toBeUndefined();
    expect(cli.headers['RateLimit-Policy']).toBe('"credential";q=20;w=1, "workspace";q=20;w=1');
    // A person's workspace: the third quota refuses, and says whose it is.
    const created = await quotas.check({ credential: 'k', workspace: 'w', creator: 'u' });
    expect(created.headers['RateLimit-Policy']).toBe(
      '"credential";q=20;w=1, "workspace";q=20;w=1, "person";q=20;w=1',
    );
    expect(created.refusal?.issues[0]?.message).toMatch(
      /^Too many requests for all the workspaces created by this workspace's creator/,
    );
    // Refused by its credential: neither the workspace nor the creator spends anything.
    expect((await quotas.check({ credential: 'k', workspace: 'w', creator: 'u' })).refusal).toBeDefined();
    expect(consumed).toEqual([
      'credential:k',
      'workspace:w',
      'credential:k',
      'workspace:w',
      'person:u',
      'credential:k',
    ]);
  });
});
