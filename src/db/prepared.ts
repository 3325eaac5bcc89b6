import { createHash } from 'node:crypto';
import type { EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

type Row = Record<string, unknown>;

export interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/** A `*` in a select list or RETURNING (not `count(*)`). */
const STAR_COLUMNS = /(?:\bSELECT|\bRETURNING|,)\s*(?:"?\w+"?\.)?\*/i;

/**
 * A statement PostgreSQL parses and plans once per connection and afterwards only executes (a
 * named prepared statement). The fixed statements every delivery runs are joins and data-modifying
 * WITHs whose planning costs PostgreSQL several times what running them does (about 0.86 ms against
 * 0.13 ms for the attempt's read of its sources), so they are prepared; the rest stay plain queries.
 *
 * The SQL names every column it returns: once a migration adds a column, a prepared `*` fails in a
 * running process with "cached plan must not change result type"; named columns keep working.
 */
export class PreparedStatement {
  private statement: { name: string; text: string } | undefined;

  /** `text` may be built from the entities' metadata (columnsOf), on first use. */
  constructor(private readonly text: string | ((manager: EntityManager) => string)) {
    if (typeof text === 'string') this.statement = named(text);
  }

  /** Runs on the manager's connection inside a transaction, else on a pooled one; its rows. */
  async run(manager: EntityManager, values: unknown[]): Promise<Row[]> {
    this.statement ??= named((this.text as (manager: EntityManager) => string)(manager));
    return this.runOn(await connectionOf(manager), values);
  }

  /** Runs on a pg pool or client itself (for counts kept beside TypeORM's, the quotas'); its rows. */
  async runOn(connection: PgQueryable, values: unknown[]): Promise<Row[]> {
    if (!this.statement) throw new Error('A statement built from the entities runs with run()');
    return (await connection.query({ ...this.statement, values })).rows;
  }
}

/**
 * A PreparedStatement whose `$1, $2, …` are named, in order: a call passes an object, checked by
 * the type checker against the names, instead of a list to keep in step with the SQL by hand.
 */
export class NamedStatement<P extends string> {
  private readonly statement: PreparedStatement;

  constructor(
    private readonly parameterNames: readonly P[],
    text: string | ((manager: EntityManager) => string),
  ) {
    this.statement = new PreparedStatement(text);
  }

  run(manager: EntityManager, parameters: Record<P, unknown>): Promise<Row[]> {
    return this.statement.run(
      manager,
      this.parameterNames.map((name) => parameters[name]),
    );
  }
}

function named(text: string): { name: string; text: string } {
  if (STAR_COLUMNS.test(text)) {
    throw new Error(`A prepared statement names its columns instead of *: ${text.slice(0, 80)}`);
  }
  // The same SQL gets the same name in every process; pg refuses one name for two texts.
  return { name: `crm_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
}

function connectionOf(manager: EntityManager): Promise<PgQueryable> {
  const runner = manager.queryRunner as PostgresQueryRunner | undefined;
  if (runner && !runner.isReleased) return runner.connect() as Promise<PgQueryable>;
  return Promise.resolve((manager.connection.driver as PostgresDriver).master as PgQueryable);
}

/**
 * A select written with the query builder, built into SQL once (the builder's aliasing and escaping
 * cost more than the query on the hottest paths) and run as a PreparedStatement. `build` receives a
 * stand-in for each named parameter and must pass them on as query parameters, never into the SQL.
 */
export class PreparedSelect<P extends string> {
  private compiled: { statement: PreparedStatement; order: P[] } | undefined;

  constructor(
    private readonly parameterNames: readonly P[],
    private readonly build: (
      manager: EntityManager,
      parameters: Record<P, string>,
    ) => SelectQueryBuilder<ObjectLiteral>,
  ) {}

  async rows(manager: EntityManager, parameters: Record<P, unknown>): Promise<Row[]> {
    const { statement, order } = this.compile(manager);
    return statement.run(
      manager,
      order.map((name) => parameters[name]),
    );
  }

  async first(manager: EntityManager, parameters: Record<P, unknown>): Promise<Row | undefined> {
    return (await this.rows(manager, parameters))[0];
  }

  private compile(manager: EntityManager) {
    if (!this.compiled) {
      const standIns = Object.fromEntries(
        this.parameterNames.map((name, index) => [name, `\u0000parameter ${index}\u0000`]),
      ) as Record<P, string>;
      const [sql, values] = this.build(manager, standIns).getQueryAndParameters();
      const order = values.map((value) => {
        const name = this.parameterNames.find((candidate) => standIns[candidate] === value);
        if (!name)
          throw new Error(`A prepared select's parameter is not one of its stand-ins: ${String(value)}`);
        return name;
      });
      this.compiled = { statement: new PreparedStatement(sql), order };
    }
    return this.compiled;
  }
}

/** `alias.column, …` for every column of an entity, for a prepared statement's select list. */
export function columnsOf(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  alias: string,
): string {
  return manager.connection
    .getMetadata(target)
    .columns.map((column) => `${alias}."${column.databaseName}"`)
    .join(', ');
}
