import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every request that leaves the service is an attempt row (issue 11, item 2): a row is written
 * before the POST (`sending`) and completed after it. An attempt of the schedule whose send was
 * interrupted (worker or database lost) keeps that row as `unknown` and its re-run adds a second
 * send of the same attempt, so `send` joins the key and the duration stays empty until known.
 */
export class AttemptSends1764460800000 implements MigrationInterface {
  name = 'AttemptSends1764460800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE delivery_attempts ADD COLUMN send integer NOT NULL DEFAULT 1 CHECK (send >= 1)`,
    );
    await db.query(`ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_pkey`);
    await db.query(`ALTER TABLE delivery_attempts ADD PRIMARY KEY (delivery_id, attempt, send)`);
    await db.query(`ALTER TABLE delivery_attempts ALTER COLUMN duration_ms DROP NOT NULL`);
    await db.query(`ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_outcome_check`);
    await db.query(
      `ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_outcome_check
         CHECK (outcome IN ('sending', 'unknown', 'delivered', 'retry', 'failed'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM delivery_attempts WHERE send > 1 OR outcome IN ('sending', 'unknown')`);
    await db.query(`ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_outcome_check`);
    await db.query(
      `ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_outcome_check
         CHECK (outcome IN ('delivered', 'retry', 'failed'))`,
    );
    await db.query(`ALTER TABLE delivery_attempts ALTER COLUMN duration_ms SET NOT NULL`);
    await db.query(`ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_pkey`);
    await db.query(`ALTER TABLE delivery_attempts DROP COLUMN send`);
    await db.query(`ALTER TABLE delivery_attempts ADD PRIMARY KEY (delivery_id, attempt)`);
  }
}
