import { Client } from 'pg';
import type { DataSource, EntitySubscriberInterface, InsertEvent, QueryRunner } from 'typeorm';
import type { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';

/**
 * The crash window of issue 10, hole 4, without mocks: right after the first transaction that
 * inserted into `table` commits, the database stops taking connections and every open one is
 * terminated (a real PostgreSQL outage, limited to the test's own database). `restore()` lets
 * connections in again and unhooks.
 */
export function crashAfterCommitOf(
  dataSource: DataSource,
  table: string,
): { fired: () => boolean; restore: () => Promise<void> } {
  const database = new URL((dataSource.options as { url: string }).url).pathname.slice(1);
  const admin = async (sql: string, params: unknown[] = []) => {
    const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql, params);
    } finally {
      await client.end();
    }
  };
  const inserted = new WeakSet<QueryRunner>();
  let armed = true;
  let fired = false;
  const subscriber: EntitySubscriberInterface = {
    afterInsert(event: InsertEvent<unknown>) {
      if (armed && event.metadata.tableName === table) inserted.add(event.queryRunner);
    },
    async afterTransactionCommit(event: TransactionCommitEvent) {
      if (!armed || !inserted.has(event.queryRunner)) return;
      armed = false;
      fired = true;
      // ALLOW_CONNECTIONS binds superusers too, so the pool cannot reconnect until restore().
      await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [database]);
    },
  };
  (dataSource.subscribers as EntitySubscriberInterface[]).push(subscriber);
  return {
    fired: () => fired,
    restore: async () => {
      armed = false;
      const list = dataSource.subscribers as EntitySubscriberInterface[];
      list.splice(list.indexOf(subscriber), 1);
      await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    },
  };
}
