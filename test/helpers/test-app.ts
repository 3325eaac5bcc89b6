import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { DataSource } from 'typeorm';
import { loadConfig, type Config } from '../../src/config';
import { createApp } from '../../src/http/app';
import { createLogger } from '../../src/logger';
import { createTestDatabase } from './database';
import { createTimeSkippingEnv } from './temporal';

export interface TestApp {
  baseUrl: string;
  dataSource: DataSource;
  config: Config;
  env: TestWorkflowEnvironment;
  close: () => Promise<void>;
}

/**
 * The real Koa app on loopback, over a fresh database on the test run's real PostgreSQL and
 * the real time-skipping Temporal test server.
 */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const env = await createTimeSkippingEnv();
  const temporal = {
    connection: env.connection,
    client: env.client,
    namespace: env.namespace ?? 'default',
    taskQueue: 'test',
  };
  const provisional = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...overrides,
  });
  const app = createApp({
    config: provisional,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    dataSource: db.dataSource,
    temporal,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // PUBLIC_URL must be the address we actually listen on (Origin checks, MCP URLs in snippets).
  Object.assign(provisional, { PUBLIC_URL: overrides.PUBLIC_URL ?? baseUrl });
  return {
    baseUrl,
    dataSource: db.dataSource,
    config: provisional,
    env,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await env.teardown();
      await db.drop();
    },
  };
}
