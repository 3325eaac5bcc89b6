import { writeFileSync } from 'node:fs';
import type { MigrationInterface } from 'typeorm';
import { identityHooks } from '../../src/app/services';
import { DeliveriesService, type DeliveryListQuery } from '../../src/deliveries/log/deliveries.service';
import { deliveryLogQuery } from '../../src/deliveries/store/delivery-log.repository';
import { searchMatches } from '../../src/deliveries/store/delivery-search';
import { loadActor, type Actor } from '../../src/identity/actor';
import { signUp } from '../../src/identity/sign-in/accounts.service';
import { DELIVERY_COUNT_CAP } from '../../src/shared/deliveries/delivery-count-cap';
import { withIndexesRebuilt, type RunSql } from '../../bench/bulk-load';
import { createLogger } from '../../src/logger';
import type { TestDatabase } from './database';

/** The delivery log's service on a test database, without Temporal (resends start nothing). */
export const logService = (db: TestDatabase) =>
  new DeliveriesService(
    db.dataSource,
    { startResend: async () => undefined },
    () => null,
    createLogger('silent'),
  );

/** A new account's actor in a workspace of its own. */
export async function newActor(db: TestDatabase, email: string, workspaceName: string): Promise<Actor> {
  const { user, workspace } = await signUp(
    db.dataSource,
    { name: email, email, password: 'plum kettle orbit 42', workspaceName },
    identityHooks,
  );
  return (await loadActor(db.dataSource.manager, workspace.id, user.id))!;
}

/**
 * Seeds the log in bulk, on one session: `load`'s inserts run with the deliveries table's indexes
 * dropped, which are then built again (bench/bulk-load.ts). 200,000 rows inserted into every index
 * took most of an index test's time; an index a test builds itself (its migration's, taken down
 * before) is not there to drop, so it is built by the test as before.
 */
export async function seedInBulk(db: TestDatabase, load: (run: RunSql) => Promise<unknown>): Promise<void> {
  const runner = db.dataSource.createQueryRunner();
  try {
    const run: RunSql = (sql, parameters) => runner.query(sql, parameters);
    await withIndexesRebuilt(run, 'deliveries', async () => {
      await load(run);
    });
  } finally {
    await runner.release();
  }
}

/** Runs one migration's up or down on its own query runner. */
export async function migrateOne(db: TestDatabase, migration: MigrationInterface, direction: 'up' | 'down') {
  const runner = db.dataSource.createQueryRunner();
  try {
    await migration[direction](runner);
  } finally {
    await runner.release();
  }
}

/** Every page of the log under the filters (ids in order), and the total of the first page. */
export async function everyPage(
  service: DeliveriesService,
  actor: Actor,
  query: Omit<DeliveryListQuery, 'limit'>,
  limit = 200,
): Promise<{ ids: string[]; total: unknown }> {
  const ids: string[] = [];
  let after: DeliveryListQuery['after'];
  let total: unknown;
  do {
    const page = await service.list(actor, { ...query, limit, after });
    total ??= page.total;
    ids.push(...page.data.map((delivery) => delivery.id));
    after = page.next ?? undefined;
  } while (after);
  return { ids, total };
}

/** The named indexes of `deliveries` that exist, each with whether it is valid (built whole). */
export async function deliveryIndexes(
  db: TestDatabase,
  names: readonly string[],
): Promise<{ name: string; valid: boolean }[]> {
  return db.dataSource.query(
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'deliveries'::regclass AND c.relname = ANY ($1) ORDER BY c.relname`,
    [names],
  );
}

/** How the log reads a filter: whether its page and its capped count used `index`, and no Seq Scan. */
export interface FilterPlan {
  name: string;
  what: 'page' | 'count';
  usesIndex: boolean;
  seqScan: boolean;
}

/**
 * The EXPLAIN ANALYZE of each filter's page and capped count, as the log runs them, with a verdict
 * on each: `index` is a name, a part of one, or a pattern matching any of the accepted ones. DELIVERY_PLANS=<file> writes the plans to that file.
 */
export async function filterPlans(
  db: TestDatabase,
  actor: Actor,
  expected: readonly [name: string, query: Omit<DeliveryListQuery, 'limit'>, index: string | RegExp][],
): Promise<FilterPlan[]> {
  const plans: string[] = [];
  const verdicts: FilterPlan[] = [];
  for (const [name, query, index] of expected) {
    const { manager } = db.dataSource;
    const search = query.searchTerm
      ? await searchMatches(manager, actor.workspace.id, query.searchTerm)
      : undefined;
    const builder = deliveryLogQuery(manager, actor.workspace.id, { ...query, limit: 50 }, search);
    const page = builder.clone().orderBy('d.created_at', 'DESC').addOrderBy('d.id', 'DESC').limit(51);
    const [countSql, countParameters] = builder
      .clone()
      .select('1', 'one')
      .limit(DELIVERY_COUNT_CAP + 1)
      .getQueryAndParameters();
    for (const [what, [sql, parameters]] of [
      ['page', page.getQueryAndParameters()],
      // As cappedCount (src/deliveries/store/delivery-count.ts) runs it.
      ['count', [`SELECT count(*)::int AS n FROM (${countSql}) matching`, countParameters]],
    ] as const) {
      const plan = (await db.dataSource.query(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
        parameters,
      )) as {
        'QUERY PLAN': string;
      }[];
      const text = plan.map((line) => line['QUERY PLAN']).join('\n');
      plans.push(`-- ${name} (${what})\n${text}`);
      verdicts.push({
        name,
        what,
        usesIndex: typeof index === 'string' ? text.includes(index) : index.test(text),
        seqScan: text.includes('Seq Scan'),
      });
    }
  }
  if (process.env.DELIVERY_PLANS) writeFileSync(process.env.DELIVERY_PLANS, plans.join('\n\n'));
  return verdicts;
}

/** What every verdict should say: the index read, no scan of the log. */
export const fromIndexes = (verdicts: FilterPlan[]) =>
  verdicts.map(({ name, what }) => ({ name, what, usesIndex: true, seqScan: false }));
