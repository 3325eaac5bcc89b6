import { rmSync } from 'node:fs';
import type { RunningDevServer } from '../src/embedded/temporal-dev-server';
import { dropTemplateDatabase } from './helpers/database';

/** What test/global-setup.ts started for the run. */
export interface RunStack {
  runDir: string;
  devServer?: RunningDevServer;
  /** The embedded cluster; absent with TEST_DATABASE_URL. */
  postgres?: { stop: () => Promise<void>; dataDir: string };
}

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as { __testStack?: RunStack }).__testStack;
  if (!stack) return;
  await stack.devServer?.stop();
  rmSync(stack.runDir, { recursive: true, force: true });
  if (!stack.postgres) {
    // A PostgreSQL of the caller's (TEST_DATABASE_URL) keeps running: leave it as it was.
    if (process.env.TEST_PG_TEMPLATE) await dropTemplateDatabase(process.env.TEST_PG_TEMPLATE);
    return;
  }
  await stack.postgres.stop();
  rmSync(stack.postgres.dataDir, { recursive: true, force: true });
}
