import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../src/app/db/data-source';

export interface TestDatabase {
  dataSource: DataSource;
  url: string;
  drop: () => Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url)
    throw new Error('TEST_PG_ADMIN_URL is unset: run integration tests through jest (test/global-setup.ts)');
  return url;
}

/** A fresh database (by default with every migration applied) on the real PostgreSQL of the test run. */
export async function createTestDatabase(
  poolSize = 5,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize });
  await dataSource.initialize();
  if (options.migrate !== false) await runMigrations(dataSource);

  return {
    dataSource,
    url: url.toString(),
    drop: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      const cleanup = new Client({ connectionString: adminUrl() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
