import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proof of an address (issue 34, item 1, account pre-claim): `users.email_verified_at`, and the
 * single-use, expiring tokens that e-mailed links carry (verify an address, reset a password),
 * stored as the SHA-256 of the token only.
 *
 * Every user that exists when this runs counts as verified: they were made by the CLI or the
 * embedded stack's first Admin (an operator's act), by an Admin adding a member (who handed over
 * the password), or by sign-up before proof existed. Refusing them now would lock out every current
 * user with no way back but a mail they were never sent; a pre-claimed account among them is taken
 * back by its real owner through the password reset, which this change also brings.
 */
export class EmailProof1764702000000 implements MigrationInterface {
  name = 'EmailProof1764702000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN email_verified_at timestamptz`);
    await db.query(`UPDATE users SET email_verified_at = created_at`);
    await db.query(`
      CREATE TABLE email_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await db.query(`CREATE UNIQUE INDEX email_tokens_token_hash_key ON email_tokens (token_hash)`);
    await db.query(`CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose, created_at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE email_tokens`);
    await db.query(`ALTER TABLE users DROP COLUMN email_verified_at`);
  }
}
