import { ValidationError } from '../errors/app-error';

/**
 * The cursor of a newest-first page (architecture.md, "paging"): the last row's creation time and
 * id, opaque to clients. Rows strictly before it, in (created_at, id) order, come next.
 */
export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime())) {
    throw ValidationError.of('The cursor is not valid.', 'cursorInvalid', ['cursor']);
  }
  return { createdAt, id };
}
