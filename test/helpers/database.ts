import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../src/app/db/data-source';
import { fromGlobalSetup } from './test-run';

export interface TestDatabase {
  dataSource: DataSource;
  url: string;
  drop: () => Promise<void>;
}

const adminUrl = () => fromGlobalSetup('TEST_PG_ADMIN_URL');

function urlOf(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A statement on the test run's PostgreSQL as its administrator, outside any test database. */
export async function asAdmin(sql: string, params: unknown[] = []): Promise<void> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(sql, params);
  } finally {
    await admin.end();
  }
}

const newName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/**
 * For the embedded cluster of a test run, removed at its end: no waiting for the disk at each commit
 * (on a busy machine, creating the databases and seeding the large logs waited mostly on fsync).
 */
export async function throwAwayDurability(): Promise<void> {
  for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes'])
    await asAdmin(`ALTER SYSTEM SET ${setting} = off`);
  await asAdmin('SELECT pg_reload_conf()');
}

/**
 * A database with every migration applied, for test/global-setup.ts to run once: each test file's
 * database is a copy of it. Left with no connection, as PostgreSQL requires of a template.
 */
export async function createTemplateDatabase(): Promise<string> {
  const name = newName('template');
  await asAdmin(`CREATE DATABASE ${name}`);
  const dataSource = createDataSource({ url: urlOf(name), poolSize: 1 });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  return name;
}

/** Drops the template (test/global-teardown.ts), for a PostgreSQL that outlives the run. */
export async function dropTemplateDatabase(name: string): Promise<void> {
  await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * A fresh database on the real PostgreSQL of the test run: a copy of the migrated template, or
 * with `{ migrate: false }` an empty one, for the tests that run the migrations themselves.
 */
export async function createTestDatabase(
  poolSize = 5,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = newName('t');
  const copy = options.migrate === false ? '' : ` TEMPLATE ${fromGlobalSetup('TEST_PG_TEMPLATE')}`;
  await asAdmin(`CREATE DATABASE ${name}${copy}`);

  const url = urlOf(name);
  const dataSource = createDataSource({ url, poolSize });
  await dataSource.initialize();

  return {
    dataSource,
    url,
    drop: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
