import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-root';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { freePort } from '../helpers/ports';

/** The built one-shot commands and external-mode roles, as `npm run …` runs them. */
describe('commands', () => {
  let db: TestDatabase;
  let port: string;
  let metricsPort: string;
  const run = (script: string, env: Record<string, string | undefined>) =>
    spawnSync(process.execPath, [join(projectRoot(), 'dist', 'src', script)], {
      // Free ports for every listener, so a stack running beside the tests (`npm start`) is no matter.
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'silent',
        PORT: port,
        METRICS_PORT: metricsPort,
        ...env,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });

  beforeAll(async () => {
    db = await createTestDatabase(2, { migrate: false });
    port = String(await freePort());
    metricsPort = String(await freePort());
  });
  afterAll(() => db.drop());

  it('npm run migrate applies every migration to an empty DATABASE_URL, then finds it up to date', async () => {
    const first = run('migrate.js', { DATABASE_URL: db.url });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Applied: Identity\d+, .*Deliveries\d+/m);
    const tables: { table_name: string }[] = await db.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'workspaces',
        'users',
        'members',
        'roles',
        'api_keys',
        'records',
        'record_events',
        'webhooks',
        'deliveries',
      ]),
    );
    const second = run('migrate.js', { DATABASE_URL: db.url });
    expect(second.status).toBe(0);
    expect(second.stdout.trim()).toBe('The database is up to date.');
  });

  it.each([
    ['api.js', {}, /^Invalid configuration: DATABASE_URL is required for `npm run api` \(external mode\)/],
    [
      'worker.js',
      { DATABASE_URL: 'postgres://x:y@127.0.0.1:1/db' },
      /^Invalid configuration: TEMPORAL_ADDRESS is required for `npm run worker`/,
    ],
    [
      'api.js',
      { DATABASE_URL: 'postgres://x:y@127.0.0.1:1/db', TEMPORAL_ADDRESS: '127.0.0.1:1' },
      /^Invalid configuration: ENCRYPTION_KEY is required in external mode/,
    ],
    [
      'api.js',
      {
        DATABASE_URL: 'postgres://x:y@127.0.0.1:1/db',
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        ENCRYPTION_KEY: 'a'.repeat(64),
      },
      // Without mail nobody new could prove an address (issue 34): the API does not start.
      /^Invalid configuration: MAIL_URL is required for `npm run api` \(external mode\)/,
    ],
  ])('%s refuses to start without its configuration, in one line', (script, env, message) => {
    const result = run(script, env);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an external-mode role with a wrong address stops with one line, not a stack trace', () => {
    const result = run('api.js', {
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      MAIL_URL: 'smtp://127.0.0.1:1',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Start-up failed: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
