import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded/postgres';
import { createTemplateDatabase, throwAwayDurability } from './helpers/database';
import { freePort } from './helpers/ports';

/**
 * One real PostgreSQL for the integration tests: TEST_DATABASE_URL if given, otherwise an
 * embedded cluster in a temporary folder. Each test file creates its own database in it, as a copy
 * of a template migrated once here (a copy takes a fraction of a second, the migrations several).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-test-pg-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root.
    const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'crm_test' });
    process.env.TEST_PG_ADMIN_URL = postgres.url;
    await throwAwayDurability();
    (globalThis as { __testPostgres?: { stop: () => Promise<void>; dataDir: string } }).__testPostgres = {
      stop: postgres.stop,
      dataDir,
    };
  }
  // The workers inherit the environment: createTestDatabase copies this one.
  process.env.TEST_PG_TEMPLATE = await createTemplateDatabase();
}
