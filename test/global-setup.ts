import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded/postgres';
import { freePort } from './helpers/ports';

/**
 * One real PostgreSQL for the integration tests: TEST_DATABASE_URL if given, otherwise an
 * embedded cluster in a temporary folder. Each test file creates its own database in it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-test-pg-'));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root.
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'crm_test' });
  process.env.TEST_PG_ADMIN_URL = postgres.url;
  (globalThis as { __testPostgres?: { stop: () => Promise<void>; dataDir: string } }).__testPostgres = {
    stop: postgres.stop,
    dataDir,
  };
}
