import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries counted as they change, not recounted on every read (issue 26; docs/deliveries.md,
 * "Counts"): the Dashboard's chart and each webhook's health read `delivery_counts`, one row per
 * workspace, webhook, UTC hour of creation and state, instead of every delivery of their window.
 *
 * Triggers on `deliveries` append each change to `delivery_count_changes` in the transaction that
 * makes it, so a rolled-back write (a crash) leaves no count behind and concurrent writers never
 * wait for each other: they only insert. Workers fold the changes into `delivery_counts` every few
 * seconds (src/deliveries/store/delivery-counts.repository.ts); readers add the changes not folded yet, so counts
 * are exact at any moment.
 *
 * The state is the status, except that a Failed delivery with a next attempt scheduled is
 * `retrying`. Counts include a row per workspace summed over its webhooks (webhook_id
 * ALL_WEBHOOKS), written by the fold, so the workspace's chart reads at most one row per hour and
 * state however many webhooks it has.
 *
 * The existing log is counted without stopping writes: the triggers are created under a lock held
 * for milliseconds, and the rows as they were at that instant (an exported snapshot) are counted by
 * a second session after the lock is gone; every change after that instant has its own row.
 */
export class DeliveryCounts1764666000000 implements MigrationInterface {
  name = 'DeliveryCounts1764666000000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE IF NOT EXISTS delivery_counts (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        state text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (workspace_id, webhook_id, hour, state)
      )`);
    await db.query(`
      CREATE TABLE IF NOT EXISTS delivery_count_changes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        workspace_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        state text NOT NULL,
        n integer NOT NULL
      )`);
    await db.query(
      `CREATE INDEX IF NOT EXISTS delivery_count_changes_workspace_idx ON delivery_count_changes (workspace_id, hour)`,
    );
    await db.query(`
      CREATE OR REPLACE FUNCTION delivery_count_state(status text, next_attempt_at timestamptz) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT CASE WHEN status = 'failed' AND next_attempt_at IS NOT NULL THEN 'retrying' ELSE status END $$`);
    await db.query(countStatementFunction('count_inserted_deliveries', 'inserted', '+'));
    await db.query(countStatementFunction('count_deleted_deliveries', 'deleted', '-'));
    await db.query(`
      CREATE OR REPLACE FUNCTION uncount_truncated_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM delivery_count_changes;
        DELETE FROM delivery_counts;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE OR REPLACE FUNCTION count_moved_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO delivery_count_changes (workspace_id, webhook_id, hour, state, n) VALUES
          (OLD.workspace_id, OLD.webhook_id, date_trunc('hour', OLD.created_at, 'UTC'),
           delivery_count_state(OLD.status, OLD.next_attempt_at), -1),
          (NEW.workspace_id, NEW.webhook_id, date_trunc('hour', NEW.created_at, 'UTC'),
           delivery_count_state(NEW.status, NEW.next_attempt_at), 1);
        RETURN NULL;
      END $$`);

    await db.query(`SET lock_timeout = '10min'`);
    // Its own connection, not one of the pool's: a pool of one (a small test database, a CLI)
    // is held by this migration's session.
    const { url } = db.connection.options as { url?: string };
    const counter = new Client({ connectionString: url });
    let connected = false;
    try {
      // Connected before the lock below is taken: opening a session can take a while on a busy
      // server, and writes to deliveries wait for as long as the lock is held.
      await counter.connect();
      connected = true;
      await db.startTransaction();
      await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_insert ON deliveries`);
      await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_delete ON deliveries`);
      await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_move ON deliveries`);
      await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_truncate ON deliveries`);
      await db.query(`TRUNCATE delivery_counts, delivery_count_changes`);
      // The first trigger's lock (SHARE ROW EXCLUSIVE) waits for every open write to deliveries and
      // holds new ones until the commit below: the snapshot taken under it is the log at the instant
      // the triggers start counting.
      await db.query(`
        CREATE TRIGGER deliveries_counted_on_insert AFTER INSERT ON deliveries
          REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_deliveries()`);
      await db.query(`
        CREATE TRIGGER deliveries_counted_on_delete AFTER DELETE ON deliveries
          REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_deliveries()`);
      await db.query(`
        CREATE TRIGGER deliveries_counted_on_truncate AFTER TRUNCATE ON deliveries
          FOR EACH STATEMENT EXECUTE FUNCTION uncount_truncated_deliveries()`);
      // Row by row, and only when a count moves: most updates (an attempt's timing, waiting_since)
      // move none and cost only the WHEN test.
      await db.query(`
        CREATE TRIGGER deliveries_counted_on_move AFTER UPDATE ON deliveries FOR EACH ROW
          WHEN (delivery_count_state(OLD.status, OLD.next_attempt_at)
                  IS DISTINCT FROM delivery_count_state(NEW.status, NEW.next_attempt_at)
                OR OLD.webhook_id IS DISTINCT FROM NEW.webhook_id
                OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id
                OR OLD.created_at IS DISTINCT FROM NEW.created_at)
          EXECUTE FUNCTION count_moved_delivery()`);
      const [{ snapshot }] = (await db.query(`SELECT pg_export_snapshot() AS snapshot`)) as [
        { snapshot: string },
      ];
      await counter.query(`BEGIN ISOLATION LEVEL REPEATABLE READ`);
      await counter.query(`SET TRANSACTION SNAPSHOT '${snapshot.replace(/'/g, '')}'`);
      await db.commitTransaction();
      // Counted as changes, so the fold adds them like any other; the inserts need no lock on counts.
      await counter.query(`
        INSERT INTO delivery_count_changes (workspace_id, webhook_id, hour, state, n)
        SELECT workspace_id, webhook_id, date_trunc('hour', created_at, 'UTC'),
               delivery_count_state(status, next_attempt_at), count(*)
          FROM deliveries GROUP BY 1, 2, 3, 4`);
      await counter.query(`COMMIT`);
    } catch (error) {
      if (db.isTransactionActive) await db.rollbackTransaction();
      if (connected) await counter.query(`ROLLBACK`).catch(() => undefined);
      throw error;
    } finally {
      if (connected) await counter.end();
      await db.query(`RESET lock_timeout`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_insert ON deliveries`);
    await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_delete ON deliveries`);
    await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_move ON deliveries`);
    await db.query(`DROP TRIGGER IF EXISTS deliveries_counted_on_truncate ON deliveries`);
    await db.query(`DROP FUNCTION IF EXISTS uncount_truncated_deliveries()`);
    await db.query(`DROP FUNCTION IF EXISTS count_inserted_deliveries()`);
    await db.query(`DROP FUNCTION IF EXISTS count_deleted_deliveries()`);
    await db.query(`DROP FUNCTION IF EXISTS count_moved_delivery()`);
    await db.query(`DROP FUNCTION IF EXISTS delivery_count_state(text, timestamptz)`);
    await db.query(`DROP TABLE IF EXISTS delivery_count_changes`);
    await db.query(`DROP TABLE IF EXISTS delivery_counts`);
  }
}

/** A statement trigger's function appending its rows (a transition table), grouped, as changes of `sign`. */
const countStatementFunction = (name: string, rows: 'inserted' | 'deleted', sign: '+' | '-') => `
  CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO delivery_count_changes (workspace_id, webhook_id, hour, state, n)
    SELECT workspace_id, webhook_id, date_trunc('hour', created_at, 'UTC'),
           delivery_count_state(status, next_attempt_at), ${sign}count(*)
      FROM ${rows} GROUP BY 1, 2, 3, 4;
    RETURN NULL;
  END $$`;
