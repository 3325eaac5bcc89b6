// `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded PostgreSQL
// under DATA_DIR when DATABASE_URL is unset (starting and stopping it around the run).
import { ConfigError, loadConfig } from '../config';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { createDataSource, runMigrations } from './data-source';

async function main(): Promise<void> {
  const config = loadConfig();
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        port: config.EMBEDDED_POSTGRES_PORT,
        database: 'crm',
        onProgress: (message) => process.stdout.write(`${message}\n`),
      });
  const dataSource = createDataSource({ url: config.DATABASE_URL ?? embedded!.url, poolSize: 2 });
  try {
    await dataSource.initialize();
    const applied = await runMigrations(dataSource);
    process.stdout.write(
      applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n',
    );
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
  }
}

main().catch((error) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Migration failed: ${String(error)}`}\n`,
  );
  process.exit(1);
});
