import { In, type EntityManager } from 'typeorm';
import { ValidationError } from '../../shared/app-error';
import { cursorTimeSql, type PageCursor } from '../../http/cursor';
import type { PageRequest } from '../../http/paging';
import { CrmRecord } from '../crm-record.entity';
import type { TypeModel } from '../../record-model/model.service';
import type { RecordAccess } from '../../record-model/record-access';
import { validateQuery, type RecordFilter } from './record-query';
import { queryToSql } from './record-query.sql';

export interface RecordListOptions extends PageRequest {
  search?: string;
  filters?: RecordFilter[];
  status: 'active' | 'trashed';
}

/**
 * One page of a type's records, newest first, matching the search and filters. A reader can
 * neither search nor filter by a field it cannot read: restricted fields are left out of the
 * search and refused in filters.
 */
export async function listRecords(
  manager: EntityManager,
  workspaceId: string,
  type: TypeModel,
  access: RecordAccess,
  options: RecordListOptions,
): Promise<{ records: CrmRecord[]; next: PageCursor | null }> {
  const query = { typeId: type.id, search: options.search, filters: options.filters };
  validateQuery(query, type.fields);
  for (const [index, filter] of (options.filters ?? []).entries()) {
    if (access.isFieldRestricted(filter.fieldId)) {
      throw ValidationError.of(
        'You cannot filter by a field your role cannot read.',
        'recordFieldRestricted',
        ['filters', index, 'fieldId'],
      );
    }
  }
  const readable = type.fields.filter((field) => !access.isFieldRestricted(field.id));
  const params: unknown[] = [workspaceId, type.id, options.status, options.limit + 1];
  let where = `r.workspace_id = $1 AND r.type_id = $2 AND r.status = $3`;
  if (options.after) {
    const cursor = options.after;
    params.push(cursor.createdAt, cursor.id);
    where += ` AND (r.created_at, r.id) < ($${params.length - 1}::timestamptz, $${params.length})`;
  }
  const filter = queryToSql(query, readable, 'r', params.length);
  params.push(...filter.params);
  const rows: { id: string; cursor_time: string }[] = await manager.query(
    `SELECT r.id, ${cursorTimeSql('r')} AS cursor_time FROM records r WHERE ${where} AND (${filter.where}) ORDER BY r.created_at DESC, r.id DESC LIMIT $4`,
    params,
  );
  const page = rows.slice(0, options.limit).map((row) => row.id);
  const found = page.length ? await manager.findBy(CrmRecord, { id: In(page) }) : [];
  const byId = new Map(found.map((record) => [record.id, record]));
  const records = page.map((id) => byId.get(id)!);
  const last = rows[options.limit - 1];
  return {
    records,
    next: rows.length > options.limit && last ? { createdAt: last.cursor_time, id: last.id } : null,
  };
}
