import type { DataSource, EntitySubscriberInterface, InsertEvent, QueryRunner } from 'typeorm';
import type { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';
import { databaseOutage } from '../helpers/outage';

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
  let reopen: () => Promise<void> = async () => undefined;
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
      // The pool cannot reconnect until restore().
      reopen = await databaseOutage(dataSource);
    },
  };
  (dataSource.subscribers as EntitySubscriberInterface[]).push(subscriber);
  return {
    fired: () => fired,
    restore: async () => {
      armed = false;
      const list = dataSource.subscribers as EntitySubscriberInterface[];
      list.splice(list.indexOf(subscriber), 1);
      await reopen();
    },
  };
}
