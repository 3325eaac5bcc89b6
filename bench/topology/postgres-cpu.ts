// PostgreSQL's CPU split by database: one cluster holds Temporal's two databases and the service's,
// and which of them a backend serves is in its process title (`postgres: user database host state`).
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { clockTicks } from '../cpu';
import { wallMs } from '../stats';

/** Background processes (checkpointer, WAL writer, autovacuum, …), serving no one database. */
export const BACKGROUND = 'background';

export interface PostgresSnapshot {
  at: number;
  /** By backend pid: the database it serves (or BACKGROUND) and its CPU ticks so far. */
  backends: Map<number, { database: string; ticks: number }>;
}

function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(entry)]);
    } catch {
      // it ended while we looked
    }
  }
  return byParent;
}

function ticksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]);
}

/** The database a backend's title names: `postgres: <user> <database> <host(port)> <state>`. */
export function databaseOfTitle(title: string): string {
  const words = title.replace(/\0/g, ' ').trim().split(/\s+/);
  if (words[0] !== 'postgres:' || words.length < 4) return BACKGROUND;
  return /\(\d+\)$|^\[local\]$/.test(words[3]!) ? words[2]! : BACKGROUND;
}

export function postgresByDatabase(postmasterPid: number | undefined): PostgresSnapshot {
  const backends = new Map<number, { database: string; ticks: number }>();
  if (postmasterPid === undefined) return { at: wallMs(), backends };
  const tree = children();
  const queue = [postmasterPid];
  while (queue.length) {
    const pid = queue.shift()!;
    queue.push(...(tree.get(pid) ?? []));
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      backends.set(pid, {
        database: pid === postmasterPid ? BACKGROUND : databaseOfTitle(title),
        ticks: ticksOf(pid),
      });
    } catch {
      // it ended while we looked
    }
  }
  return { at: wallMs(), backends };
}

/** % of one core by database between two snapshots (a backend that began in between counts whole). */
export function postgresCpuBetween(a: PostgresSnapshot, b: PostgresSnapshot): Record<string, number> {
  const seconds = (b.at - a.at) / 1000;
  const used: Record<string, number> = {};
  for (const [pid, now] of b.backends) {
    const before = a.backends.get(pid)?.ticks ?? 0;
    used[now.database] = (used[now.database] ?? 0) + ((now.ticks - before) / clockTicks() / seconds) * 100;
  }
  return used;
}

/** Committed transactions and rows written so far, by database (pg_stat_database). */
export type DatabaseActivity = Record<string, { commits: number; rows: number }>;

export async function databaseActivity(url: string): Promise<DatabaseActivity> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // Each backend flushes its counts at most once a second: a step of 15 s or more reads them whole
    // but for its last second, as the same for every shape.
    const { rows } = await client.query<{ datname: string; commits: string; rows: string }>(
      `SELECT datname, xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS rows
         FROM pg_stat_database WHERE datname IS NOT NULL`,
    );
    return Object.fromEntries(
      rows.map((row) => [row.datname, { commits: Number(row.commits), rows: Number(row.rows) }]),
    );
  } finally {
    await client.end();
  }
}

/** Per database, what was committed and written between two readings. */
export function activityBetween(a: DatabaseActivity, b: DatabaseActivity): DatabaseActivity {
  return Object.fromEntries(
    Object.entries(b).map(([name, now]) => [
      name,
      { commits: now.commits - (a[name]?.commits ?? 0), rows: now.rows - (a[name]?.rows ?? 0) },
    ]),
  );
}
