import { rmSync } from 'node:fs';
import { dropTemplateDatabase } from './helpers/database';

export default async function globalTeardown(): Promise<void> {
  const postgres = (globalThis as { __testPostgres?: { stop: () => Promise<void>; dataDir: string } })
    .__testPostgres;
  if (!postgres) {
    // A PostgreSQL of the caller's (TEST_DATABASE_URL) keeps running: leave it as it was.
    if (process.env.TEST_PG_TEMPLATE) await dropTemplateDatabase(process.env.TEST_PG_TEMPLATE);
    return;
  }
  await postgres.stop();
  rmSync(postgres.dataDir, { recursive: true, force: true });
}
