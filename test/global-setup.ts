import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded/postgres';
import { createTemplateDatabase, throwAwayDurability } from './helpers/database';
import { startTestDevServer } from './helpers/dev-server';
import { freePort } from './helpers/ports';
import type { RunStack } from './global-teardown';

/**
 * What the integration test files share (CONTRIBUTING.md, "Tests"), handed to the Jest workers
 * through the environment they inherit:
 * - one real PostgreSQL: TEST_DATABASE_URL if given, otherwise an embedded cluster in a temporary
 *   folder. Each test file creates its own database in it, as a copy of a template migrated once
 *   here (a copy takes a fraction of a second, the migrations several);
 * - one Temporal dev server for the apps that run no worker (test/helpers/test-run.ts);
 * - a folder for the run (the workflow bundle its workers load).
 * The servers die with this process, even killed (src/embedded/server-child.ts).
 */
export default async function globalSetup(): Promise<void> {
  const stack: RunStack = { runDir: mkdtempSync(join(tmpdir(), 'crm-test-run-')) };
  (globalThis as { __testStack?: RunStack }).__testStack = stack;
  process.env.TEST_RUN_DIR = stack.runDir;
  const devServer = startTestDevServer();
  devServer.catch(() => undefined); // awaited below, after PostgreSQL
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-test-pg-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as the `postgres` user when we are root.
    const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'crm_test' });
    process.env.TEST_PG_ADMIN_URL = postgres.url;
    await throwAwayDurability();
    stack.postgres = { stop: postgres.stop, dataDir };
  }
  // The workers inherit the environment: createTestDatabase copies this one.
  process.env.TEST_PG_TEMPLATE = await createTemplateDatabase();
  stack.devServer = await devServer;
  process.env.TEST_TEMPORAL_ADDRESS = stack.devServer.address;
}
