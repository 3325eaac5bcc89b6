import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { cursorTimeSql, type PageCursor } from '../http/cursor';
import type { PageRequest } from '../http/paging';

/**
 * One newest-first page of a query builder by (created_at, id), and where the next page starts:
 * every row exactly once, whatever rows share a timestamp (the cursor keeps PostgreSQL's
 * microseconds, see cursor.ts).
 */
export async function keysetPage<T extends ObjectLiteral & { id: string }>(
  builder: SelectQueryBuilder<T>,
  alias: string,
  page: PageRequest,
): Promise<{ rows: T[]; next: PageCursor | null }> {
  builder
    .addSelect(cursorTimeSql(alias), 'cursor_time')
    .orderBy(`${alias}.created_at`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .take(page.limit + 1);
  if (page.after) {
    const cursor = page.after;
    builder.andWhere(`(${alias}.created_at, ${alias}.id) < (CAST(:cursorTime AS timestamptz), :cursorId)`, {
      cursorTime: cursor.createdAt,
      cursorId: cursor.id,
    });
  }
  const { entities, raw } = await builder.getRawAndEntities();
  const rows = entities.slice(0, page.limit);
  const last = rows.at(-1);
  if (entities.length <= page.limit || !last) return { rows, next: null };
  const lastRaw = (raw as Record<string, string>[]).find((row) => row[`${alias}_id`] === last.id);
  return { rows, next: { createdAt: lastRaw!.cursor_time!, id: last.id } };
}
