import { Client } from 'pg';
import type { DataSource } from 'typeorm';

/** A statement on the test run's PostgreSQL as its administrator, outside any test database. */
export async function asAdmin(sql: string, params: unknown[] = []): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/**
 * A real PostgreSQL outage limited to one test database, without mocks: it stops taking
 * connections and every open one is terminated (ALLOW_CONNECTIONS binds superusers too, so a pool
 * cannot reconnect) until the returned function lets connections in again.
 */
export async function databaseOutage(dataSource: DataSource): Promise<() => Promise<void>> {
  const database = new URL((dataSource.options as { url: string }).url).pathname.slice(1);
  await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
  await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [database]);
  return () => asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
}
