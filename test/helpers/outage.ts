import type { DataSource } from 'typeorm';
import { asAdmin } from './database';

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
