// One way to load a large table for the benchmarks (bench/log/) and the index tests (test/deliveries/log/).
/** Runs one statement and answers its rows: a pg Client's `query` with `.rows`, or one query runner's. */
export type RunSql = (sql: string, parameters?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Runs `load` with the table's indexes dropped (all but its primary key), then builds them again
 * from their own definitions: a bulk load that sorts once per index instead of inserting each row
 * into twenty of them. `run` must keep to one session, for the SET below. The indexes come out
 * packed (90 % full pages), as a table's are after a REINDEX; grown one row at a time they are
 * larger (docs/deliveries.md).
 */
export async function withIndexesRebuilt(
  run: RunSql,
  table: string,
  load: () => Promise<void>,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const indexes = (await run(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = $1 AND i.indexname <> $1 || '_pkey'`,
    [table],
  )) as { name: string; definition: string }[];
  for (const { name } of indexes) await run(`DROP INDEX ${name}`);
  await load();
  await run(`SET maintenance_work_mem = '512MB'`);
  for (const { name, definition } of indexes) {
    const started = Date.now();
    await run(definition);
    log(`  rebuilt ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await run('RESET maintenance_work_mem');
}
