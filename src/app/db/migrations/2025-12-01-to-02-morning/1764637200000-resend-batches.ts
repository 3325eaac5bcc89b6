import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Resend failed since …" (issue 13): a batch row per request and a result row per delivery it
 * handled. The result's key (batch, delivery) is written in the same transaction as the resend's
 * new delivery row, so a retried or replayed step finds it and never resends twice.
 */
export class ResendBatches1764637200000 implements MigrationInterface {
  name = 'ResendBatches1764637200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE resend_batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL,
        requested_by_user_id uuid NOT NULL,
        api_key_id uuid,
        since timestamptz NOT NULL,
        batch_limit integer NOT NULL CHECK (batch_limit >= 1),
        delivery_ids uuid[] NOT NULL,
        more_remained boolean NOT NULL,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed')),
        workflow_started_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX resend_batches_webhook_idx ON resend_batches (workspace_id, webhook_id, created_at DESC)`,
    );
    // The dispatch sweep looks for batches whose workflow could not be started.
    await db.query(
      `CREATE INDEX resend_batches_unstarted_idx ON resend_batches (created_at) WHERE workflow_started_at IS NULL`,
    );
    // A batch skips a Failed delivery that was already resent (its resend stands for it).
    await db.query(
      `CREATE INDEX deliveries_resend_of_idx ON deliveries (resend_of) WHERE resend_of IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE resend_batch_results (
        batch_id uuid NOT NULL REFERENCES resend_batches (id) ON DELETE CASCADE,
        delivery_id uuid NOT NULL,
        position integer NOT NULL,
        resent_delivery_id uuid REFERENCES deliveries (id) ON DELETE SET NULL,
        refusal jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (batch_id, delivery_id),
        CHECK ((resent_delivery_id IS NULL) <> (refusal IS NULL))
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX deliveries_resend_of_idx`);
    await db.query(`DROP TABLE resend_batch_results`);
    await db.query(`DROP TABLE resend_batches`);
  }
}
