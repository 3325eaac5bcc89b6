import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { RequestQuotas, type QuotaSubject } from '../../src/http/quotas/request-quotas';
import { RequestQuota, type QuotaLimits } from '../../src/security/request-quota';
import { SteadyChain } from '../../src/security/steady-chain';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { databaseOutage } from '../helpers/outage';
import { statementCounter } from '../helpers/statements';

/**
 * A request's quotas in one statement (docs/security.md, "Limits"), on real PostgreSQL: while every
 * steady window has room, the whole check is one round trip; at the edges, the chain keeps today's
 * order (the workspace counted only within the credential's second, the person only within the
 * workspace's), the burst reserve decides and is shown, a key over its quota costs no statement,
 * and the rows are rate-limiter-flexible's own, so its count and the chain's are one count.
 */
describe('the request quotas chained in one statement', () => {
  let db: TestDatabase;
  let pool: Pool;
  const log = statementCounter();

  beforeAll(async () => {
    db = await createTestDatabase(3);
    pool = (db.dataSource.driver as PostgresDriver).master as Pool;
  });
  afterAll(async () => {
    log.restore();
    await db?.drop();
  });

  /** Fresh quotas (no block in memory from another test) and fresh keys; refusals answered at once. */
  function quotas(credential: QuotaLimits, workspace: QuotaLimits, person: QuotaLimits) {
    const quota = (name: string, limits: QuotaLimits) => new RequestQuota(name, limits, pool);
    const byCredential = quota('credential', credential);
    const subject: Required<QuotaSubject> = {
      credential: randomUUID(),
      workspace: randomUUID(),
      creator: randomUUID(),
    };
    const chained = new RequestQuotas(
      byCredential,
      quota('workspace', workspace),
      quota('person', person),
      () => Promise.resolve(),
      new SteadyChain(pool),
    );
    return { chained, byCredential, subject, check: () => chained.check(subject) };
  }

  const pointsOf = async (key: string): Promise<number | undefined> => {
    const { rows } = await pool.query<{ points: number }>('SELECT points FROM rate_limits WHERE key = $1', [
      key,
    ]);
    return rows[0]?.points;
  };
  const counts = async (subject: Required<QuotaSubject>) => [
    await pointsOf(`credential:${subject.credential}`),
    await pointsOf(`workspace:${subject.workspace}`),
    await pointsOf(`person:${subject.creator}`),
  ];
  const roomy = { perSecond: 100, burst: 0 };

  it('checks a request against its three quotas in one prepared statement while each second has room', async () => {
    const { check, subject } = quotas({ perSecond: 5, burst: 2 }, roomy, roomy);
    await check(); // the statement prepared on its connection
    const { result, total, statements } = await log.during(check);
    expect(total).toBe(1);
    expect(statements[0]).toMatch(/^WITH step0 AS \( INSERT INTO "rate_limits"/);
    expect(result.refusal).toBeUndefined();
    expect(result.headers.RateLimit).toMatch(
      /^"credential";r=3;t=1, "workspace";r=98;t=1, "person";r=98;t=1$/,
    );
    expect(await counts(subject)).toEqual([2, 2, 2]);
  });

  it('takes two quotas in one statement for a workspace made from the CLI (no creator)', async () => {
    const { chained, subject } = quotas(roomy, roomy, roomy);
    const { result, total } = await log.during(() =>
      chained.check({ credential: subject.credential, workspace: subject.workspace, creator: null }),
    );
    expect(total).toBe(1);
    expect(result.headers.RateLimit).toMatch(/^"credential";r=99;t=1, "workspace";r=99;t=1$/);
    expect(await counts(subject)).toEqual([1, 1, undefined]);
  });

  it('adds to the count rate-limiter-flexible keeps for the same key, in its rows', async () => {
    const { check, byCredential, subject } = quotas({ perSecond: 3, burst: 0 }, roomy, roomy);
    // Two by the library's own upsert (an API process of the version before), then the chain's.
    await byCredential.consume(subject.credential);
    await byCredential.consume(subject.credential);
    const before = Date.now();
    expect((await check()).refusal).toBeUndefined();
    expect((await check()).refusal).toBeDefined();
    const { rows } = await pool.query<{ points: number; expire: string }>(
      'SELECT points, expire FROM rate_limits WHERE key = $1',
      [`credential:${subject.credential}`],
    );
    expect(rows[0]!.points).toBe(4);
    // The window the library opened (its end in epoch ms) is the one the chain counted in.
    expect(Number(rows[0]!.expire)).toBeLessThanOrEqual(before + 1000);
    expect(Number(rows[0]!.expire)).toBeGreaterThan(before - 1000);
  });

  it("does not count a request refused by its credential against the workspace or the person, and refuses the key's next ones without a statement", async () => {
    const { check, subject } = quotas({ perSecond: 2, burst: 0 }, roomy, roomy);
    await check();
    await check();
    const refused = await log.during(check);
    expect(refused.result.refusal?.issues[0]?.message).toMatch(/^Too many requests for this API key/);
    expect(refused.total).toBe(1);
    expect(await counts(subject)).toEqual([3, 2, 2]);
    // Over its quota, the key is refused from memory for the rest of its window: a flood costs the
    // database nothing.
    const flood = await log.during(async () => Promise.all([check(), check(), check()]));
    expect(flood.result.every((verdict) => verdict.refusal)).toBe(true);
    expect(flood.total).toBe(0);
    expect(await counts(subject)).toEqual([3, 2, 2]);
  });

  it("does not count a request refused by its workspace against the person; the next one counts only its credential's", async () => {
    const { check, subject } = quotas(roomy, { perSecond: 2, burst: 0 }, roomy);
    await check();
    await check();
    const refused = await check();
    expect(refused.refusal?.issues[0]?.message).toMatch(/^Too many requests for this workspace/);
    expect(refused.headers.RateLimit).toMatch(/^"credential";r=97;t=1, "workspace";r=0;t=1$/);
    expect(await counts(subject)).toEqual([3, 3, 2]);
    // The workspace is refused from memory now: one statement (the credential's count), as before.
    const next = await log.during(check);
    expect(next.result.refusal).toBeDefined();
    expect(next.total).toBe(1);
    expect(await counts(subject)).toEqual([4, 3, 2]);
  });

  it("does not count a request refused by the person's quota anywhere after it", async () => {
    const { check, subject } = quotas(roomy, roomy, { perSecond: 1, burst: 0 });
    expect((await check()).refusal).toBeUndefined();
    const refused = await check();
    expect(refused.refusal?.issues[0]?.message).toMatch(/^Too many requests for all the workspaces/);
    expect(await counts(subject)).toEqual([2, 2, 2]);
  });

  it('serves from the burst reserve once the second is spent, says its level, and counts the workspace and person then', async () => {
    const { check, subject } = quotas({ perSecond: 2, burst: 2 }, roomy, roomy);
    const items = async () => {
      const verdict = await check();
      return `${verdict.refusal ? 429 : 200} ${verdict.headers.RateLimit!.split(', "workspace"')[0]!.replace(/;t=\d+/g, '')}`;
    };
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await items());
    expect(answers).toEqual([
      '200 "credential";r=1',
      // The second spent by this request: the reserve's level, read, not drawn from.
      '200 "credential";r=0, "credential-burst";r=2',
      '200 "credential";r=0, "credential-burst";r=1',
      '200 "credential";r=0, "credential-burst";r=0',
      '429 "credential";r=0, "credential-burst";r=0',
    ]);
    // Four served, each counted once against the workspace and the person; the refusal not. The
    // second's count stops at 3: over it, the key is refused from memory and the reserve decides.
    expect(await counts(subject)).toEqual([3, 4, 4]);
    expect(await pointsOf(`credential-burst:${subject.credential}`)).toBe(3);
  });

  it('counts in memory while PostgreSQL is unreachable, and refuses beyond the quota there too', async () => {
    const { check, subject } = quotas({ perSecond: 2, burst: 0 }, roomy, roomy);
    const reopen = await databaseOutage(db.dataSource);
    try {
      const verdicts = [await check(), await check(), await check()];
      expect(verdicts.map((verdict) => Boolean(verdict.refusal))).toEqual([false, false, true]);
    } finally {
      await reopen();
    }
    // Back in PostgreSQL, which counted nothing meanwhile.
    expect((await check()).refusal).toBeUndefined();
    expect(await counts(subject)).toEqual([1, 1, 1]);
  });
});
