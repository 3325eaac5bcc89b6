// `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded PostgreSQL
// under DATA_DIR when DATABASE_URL is unset.
import { ConfigError } from './config';
import { withDatabase } from './app/db/with-database';

const say = (message: string) => process.stdout.write(`${message}\n`);

withDatabase(async (_dataSource, applied) => {
  say(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
}, say).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Migration failed: ${String(error)}`}\n`,
  );
  process.exit(1);
});
