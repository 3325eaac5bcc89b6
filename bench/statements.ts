// SQL statements per record write and its delivery, counted by PostgreSQL itself: the bench turns on
// log_statement=all for a short window, makes a few writes one after the other (each waiting for its
// signed POST), then counts the statements the server logged, minus what the same window logs with no
// writes (sweeps and pollers). No instrumentation in the service.
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { Client } from 'pg';
import { sleep, wallMs } from './stats';

export interface StatementCount {
  writes: number;
  /** Statements per write and its delivery, the idle rate taken off. */
  perDelivery: number;
  /** Of those, the ones run as named prepared statements (src/db/prepared.ts). */
  preparedPerDelivery: number;
  /** Statements logged while writing, and in an idle window as long, before subtracting. */
  measured: number;
  idle: number;
  /** The most frequent statements, per delivery (normalised text). */
  top: { statement: string; perDelivery: number; prepared: boolean }[];
}

const BENCH_APP = 'bench-statements';
// `%a|`: the application name, so the bench's own statements are left out.
const STATEMENT_LINE = /^([^|\n]*)\|LOG:\s+(?:statement|execute ([^:]*)): (.*)$/;

/** The names src/db/prepared.ts gives its statements (an unnamed one logs as `<unnamed>`). */
const PREPARED_NAME = /^crm_[0-9a-f]+$/;

/** What the statement does, without its values: the first words of its text, parameters dropped. */
export function normaliseStatement(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b\d+\b/g, 'N')
    .trim()
    .slice(0, 90);
}

/** The statements logged between two offsets of the PostgreSQL log, by normalised text. */
export function statementsIn(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { key } of loggedStatements(text)) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** The normalised texts that ran as named prepared statements. */
export function preparedIn(text: string): Set<string> {
  return new Set([...loggedStatements(text)].filter(({ prepared }) => prepared).map(({ key }) => key));
}

function* loggedStatements(text: string): Generator<{ key: string; prepared: boolean }> {
  for (const line of text.split('\n')) {
    const match = STATEMENT_LINE.exec(line);
    if (!match || match[1] === BENCH_APP) continue;
    yield { key: normaliseStatement(match[3]!), prepared: PREPARED_NAME.test(match[2] ?? '') };
  }
}

function readFrom(file: string, from: number, to: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, to - from));
    readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

export async function countStatements(options: {
  postgresUrl: string;
  /** The embedded PostgreSQL's log (DATA_DIR/postgres.log). */
  logFile: string;
  writes: number;
  /** One write, resolved when its delivery has been received. */
  writeAndReceive: (index: number) => Promise<void>;
}): Promise<StatementCount> {
  const client = new Client({ connectionString: options.postgresUrl, application_name: BENCH_APP });
  await client.connect();
  const size = () => statSync(options.logFile).size;
  try {
    await client.query(`ALTER SYSTEM SET log_statement = 'all'`);
    await client.query(`ALTER SYSTEM SET log_line_prefix = '%a|'`);
    await client.query('SELECT pg_reload_conf()');
    await sleep(500);

    const measuredFrom = size();
    const started = wallMs();
    for (let index = 0; index < options.writes; index++) await options.writeAndReceive(index);
    const duration = wallMs() - started;
    await sleep(200); // the last delivery's closing statements
    const measuredTo = size();
    await sleep(duration + 200);
    const idleTo = size();

    const measuredText = readFrom(options.logFile, measuredFrom, measuredTo);
    const measured = statementsIn(measuredText);
    const prepared = preparedIn(measuredText);
    const idle = statementsIn(readFrom(options.logFile, measuredTo, idleTo));
    const net = new Map(
      [...measured].map(([statement, count]) => [statement, count - (idle.get(statement) ?? 0)]),
    );
    return {
      writes: options.writes,
      perDelivery: (total(measured) - total(idle)) / options.writes,
      preparedPerDelivery:
        [...net].filter(([statement]) => prepared.has(statement)).reduce((sum, [, count]) => sum + count, 0) /
        options.writes,
      measured: total(measured),
      idle: total(idle),
      top: [...net]
        .filter(([, count]) => count > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([statement, count]) => ({
          statement,
          perDelivery: count / options.writes,
          prepared: prepared.has(statement),
        })),
    };
  } finally {
    await client.query('ALTER SYSTEM RESET log_statement').catch(() => undefined);
    await client.query('ALTER SYSTEM RESET log_line_prefix').catch(() => undefined);
    await client.query('SELECT pg_reload_conf()').catch(() => undefined);
    await client.end();
  }
}
