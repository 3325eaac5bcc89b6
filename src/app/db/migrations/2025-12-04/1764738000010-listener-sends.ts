import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `listen` across processes (docs/listen.md#across-processes): a worker writes each send to a
 * session here and NOTIFYs its id; the API process holding the session's stream marks it forwarded,
 * and the answer endpoint (on any API process) stores the local answer. The worker deletes the row
 * once answered or timed out, so the table holds only the sends in flight (a few seconds each);
 * a session's removal takes any left behind with it.
 */
export class ListenerSends1764738000010 implements MigrationInterface {
  name = 'ListenerSends1764738000010';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE listener_sends (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        session_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        delivery_id uuid NOT NULL,
        headers jsonb NOT NULL,
        body text NOT NULL,
        forwarded_at timestamptz,
        answer jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX listener_sends_session_idx ON listener_sends (session_id, delivery_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE listener_sends`);
  }
}
