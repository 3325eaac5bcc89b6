import type { Pool } from 'pg';
import type { RateLimiterAbstract, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { PreparedStatement } from '../db/prepared';

/** One quota's steady window in the chain: its key as rate-limiter-flexible names it, and its size. */
export interface SteadyStep {
  key: string;
  points: number;
  msDuration: number;
}

/** A window's row after this request's point, as rate-limiter-flexible's upsert returns it. */
export interface SteadyRow {
  points: number;
  expire: string | number | null;
}

/** The most quotas one request is counted against (credential, workspace, person). */
const MOST_STEPS = 3;

/**
 * One step's point, in rate-limiter-flexible's upsert (RateLimiterPostgres): a window that has
 * ended starts again at 1 with a new end, else it counts one more; the same rows in the same
 * shape, so the library's count and this one are one count. `$1` is now in epoch ms; step i's key,
 * end and points follow. After the first, a step is taken only when the one before stayed within
 * its points, and only when it has a key (a workspace made from the CLI has no creator).
 */
function upsert(index: number): string {
  const [key, expire] = [2 + 3 * index, 3 + 3 * index];
  const before = index - 1;
  const row =
    index === 0
      ? `VALUES ($${key}::varchar, 1, $${expire}::bigint)`
      : `SELECT $${key}::varchar, 1, $${expire}::bigint FROM step${before}
         WHERE step${before}.points <= $${4 + 3 * before}::integer AND $${key}::varchar IS NOT NULL`;
  return `step${index} AS (
    INSERT INTO "rate_limits" (key, points, expire) ${row}
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN "rate_limits".expire <= $1::bigint THEN 1 ELSE "rate_limits".points + 1 END,
      expire = CASE WHEN "rate_limits".expire <= $1::bigint THEN $${expire}::bigint
                    ELSE "rate_limits".expire END
    RETURNING points, expire)`;
}

const steps = Array.from({ length: MOST_STEPS }, (_, index) => index);
const CHAIN = new PreparedStatement(
  `WITH ${steps.map(upsert).join(',\n')}
   SELECT ${steps.map((index) => `step${index}.points AS points${index}, step${index}.expire AS expire${index}`).join(', ')}
   FROM step0 ${steps
     .slice(1)
     .map((index) => `LEFT JOIN step${index} ON true`)
     .join(' ')}`,
);

/**
 * The steady windows of a request's quotas counted in one statement, in turn: the whole check in
 * one round trip while every window has room (docs/engine.md, "Few round trips to PostgreSQL"). A
 * step not taken (the one before it ran out) is null, for the per-quota code to count as before.
 */
export class SteadyChain {
  constructor(private readonly pool: Pool) {}

  async take(chain: readonly SteadyStep[]): Promise<(SteadyRow | null)[]> {
    if (chain.length === 0 || chain.length > MOST_STEPS) throw new Error('1 to 3 quotas in a chain');
    const now = Date.now();
    const values: unknown[] = [now];
    for (const index of steps) {
      const step = chain[index];
      values.push(step?.key ?? null, step ? now + step.msDuration : null, step?.points ?? null);
    }
    values.pop(); // the last step's points: no step after it reads them
    const [row] = await CHAIN.runOn(this.pool, values);
    return chain.map((_, index) =>
      row?.[`points${index}`] === null || row?.[`points${index}`] === undefined
        ? null
        : { points: row[`points${index}`] as number, expire: row[`expire${index}`] as string | null },
    );
  }
}

/**
 * The parts of rate-limiter-flexible's store the chain relies on (11.x,
 * lib/RateLimiterStoreAbstract.js): not in its types, so checked where they are used.
 */
interface StoreInternals {
  getInMemoryBlockMsBeforeExpire(rlKey: string): number;
  insuranceLimiter?: RateLimiterAbstract;
  _afterConsume(
    resolve: (res: RateLimiterRes) => void,
    reject: (reason: unknown) => void,
    rlKey: string,
    changedPoints: number,
    storeResult: { rows: SteadyRow[] },
  ): void;
}

const internalsOf = (store: RateLimiterPostgres): StoreInternals => {
  const inner = store as unknown as StoreInternals;
  if (typeof inner._afterConsume !== 'function' || typeof inner.getInMemoryBlockMsBeforeExpire !== 'function')
    throw new Error('rate-limiter-flexible no longer has the store internals the quota chain uses');
  return inner;
};

/** A store's step in the chain, or null while its key is refused from memory (no statement then). */
export function steadyStepOf(store: RateLimiterPostgres, key: string): SteadyStep | null {
  const rlKey = store.getKey(key);
  if (internalsOf(store).getInMemoryBlockMsBeforeExpire(rlKey) > 0) return null;
  return { key: rlKey, points: store.points, msDuration: store.duration * 1000 };
}

/**
 * What the store's own consume makes of a point the chain took (its row) or failed to (the error):
 * the same answer, the same block in memory for a key over its points, and, when PostgreSQL failed,
 * the count in memory that stands in for it (its insurance).
 */
export function settle(
  store: RateLimiterPostgres,
  key: string,
  taken: SteadyRow | Error,
): Promise<RateLimiterRes> {
  const inner = internalsOf(store);
  if (taken instanceof Error)
    return inner.insuranceLimiter ? inner.insuranceLimiter.consume(key) : Promise.reject(taken);
  return new Promise((resolve, reject) =>
    inner._afterConsume(resolve, reject, store.getKey(key), 1, { rows: [taken] }),
  );
}
