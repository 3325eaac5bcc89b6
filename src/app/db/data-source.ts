import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { entities } from './entities';
import { migrations } from './migrations';

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
}

// A write that waits this long behind another transaction's lock is refused as "busy"
// (docs/api.md#errors: "a write waiting more than a few seconds behind another workspace change").
const LOCK_TIMEOUT_MS = 5_000;
const POOL_ACQUIRE_TIMEOUT_MS = 5_000;

/** The schema is owned by migrations only: `synchronize` stays off everywhere. */
export function createDataSource({ url, poolSize = 20 }: DatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    extra: {
      max: poolSize,
      connectionTimeoutMillis: POOL_ACQUIRE_TIMEOUT_MS,
      options: `-c lock_timeout=${LOCK_TIMEOUT_MS}`,
    },
  });
}

/** Applies pending migrations; returns their names. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((migration) => migration.name);
}
