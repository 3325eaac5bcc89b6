import type { DataSource } from 'typeorm';
import { loadConfig } from '../../config';
import { startEmbeddedPostgres } from '../../embedded/postgres';
import { createDataSource, runMigrations } from './data-source';

/**
 * Runs `work` for a one-shot command (`npm run migrate`, `npm run cli`) against DATABASE_URL, or
 * the embedded PostgreSQL under DATA_DIR when it is unset (reusing it when `npm start` runs it).
 * Pending migrations are applied first.
 */
export async function withDatabase<T>(
  work: (dataSource: DataSource, applied: string[]) => Promise<T>,
  onProgress?: (message: string) => void,
): Promise<T> {
  const config = loadConfig();
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        port: config.EMBEDDED_POSTGRES_PORT,
        database: 'crm',
        onProgress,
      });
  const dataSource = createDataSource({ url: config.DATABASE_URL ?? embedded!.url, poolSize: 2 });
  try {
    await dataSource.initialize();
    const applied = await runMigrations(dataSource);
    return await work(dataSource, applied);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
  }
}
