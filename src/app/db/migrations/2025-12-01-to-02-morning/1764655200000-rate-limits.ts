import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Request quotas and sign-in throttling (issue 24): the counters every API process shares, in the
 * shape rate-limiter-flexible's PostgreSQL store reads and writes (key, points used, when the
 * window ends in epoch ms). Expired rows are deleted by the store now and then.
 */
export class RateLimits1764655200000 implements MigrationInterface {
  name = 'RateLimits1764655200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE rate_limits (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE rate_limits`);
  }
}
