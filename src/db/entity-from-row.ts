import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * An entity from a raw row (`RETURNING *`, or a joined select whose fields are
 * `<prefix>_<column>`), so a row already in hand is not read a second time.
 */
export function entityFromRow<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  row: Record<string, unknown>,
  prefix?: string,
): T {
  const values: Record<string, unknown> = {};
  for (const column of manager.connection.getMetadata(target).columns) {
    values[column.propertyName] = row[prefix ? `${prefix}_${column.databaseName}` : column.databaseName];
  }
  return manager.create(target, values as T);
}
