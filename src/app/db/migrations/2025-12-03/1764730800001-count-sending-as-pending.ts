import type { MigrationInterface, QueryRunner } from 'typeorm';

const FOLD_LOCK = `hashtext('delivery_counts_fold')`;

/**
 * The kept counts (docs/deliveries.md#counts) count a Sending delivery as Pending: every reader sums
 * the two as "in flight", and a delivery's move from Pending to Sending — once per attempt, on the
 * path of every delivery — then moves no count, so its trigger appends no change rows (two fewer
 * rows per attempt, of five per delivery delivered at once). The rows kept under `sending` become
 * `pending`. Writes to deliveries and the fold wait the few milliseconds this takes, so no change
 * is counted under the old rule after it.
 */
export class CountSendingAsPending1764730800001 implements MigrationInterface {
  name = 'CountSendingAsPending1764730800001';

  async up(db: QueryRunner): Promise<void> {
    await this.countSendingAs(db, 'pending');
  }

  /** Back to counting Sending apart: the deliveries now Sending are moved back from Pending. */
  async down(db: QueryRunner): Promise<void> {
    await this.countSendingAs(db, 'sending');
  }

  private async countSendingAs(db: QueryRunner, state: 'pending' | 'sending'): Promise<void> {
    await db.query(`LOCK TABLE deliveries IN SHARE ROW EXCLUSIVE MODE`);
    await db.query(`SELECT pg_advisory_xact_lock(${FOLD_LOCK})`);
    await db.query(`
      CREATE OR REPLACE FUNCTION delivery_count_state(status text, next_attempt_at timestamptz) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT CASE WHEN status = 'failed' AND next_attempt_at IS NOT NULL THEN 'retrying'
                          WHEN status = 'sending' THEN '${state}' ELSE status END $$`);
    if (state === 'pending') {
      await db.query(`UPDATE delivery_count_changes SET state = 'pending' WHERE state = 'sending'`);
      await db.query(`
        INSERT INTO delivery_counts (workspace_id, webhook_id, hour, state, n)
        SELECT workspace_id, webhook_id, hour, 'pending', n FROM delivery_counts WHERE state = 'sending'
        ON CONFLICT (workspace_id, webhook_id, hour, state) DO UPDATE SET n = delivery_counts.n + EXCLUDED.n`);
      await db.query(`DELETE FROM delivery_counts WHERE state = 'sending'`);
      return;
    }
    // The deliveries Sending now, moved from Pending to Sending as changes (the fold adds them).
    await db.query(`
      INSERT INTO delivery_count_changes (workspace_id, webhook_id, hour, state, n)
      SELECT workspace_id, webhook_id, date_trunc('hour', created_at, 'UTC'), moved.state, moved.n * count(*)
        FROM deliveries, (VALUES ('pending', -1), ('sending', 1)) AS moved(state, n)
       WHERE status = 'sending'
       GROUP BY 1, 2, 3, 4, moved.n`);
  }
}
