import { ValidationError } from '../shared/app-error';

/**
 * The cursor of a newest-first page (docs/api.md#request-format-and-methods): the last row's
 * creation time and id, opaque to clients. Rows strictly before it, in (created_at, id) order, come
 * next. The time is PostgreSQL's own, to the microsecond: a JavaScript Date keeps milliseconds
 * only, and rows written in one millisecond (one dispatch batch) would otherwise fall between two
 * pages.
 */
export interface PageCursor {
  /** ISO 8601 UTC with up to six fractional digits, as `cursorTimeSql` reads it. */
  createdAt: string;
  id: string;
}

/** SQL for a row's exact creation time in the cursor's form. */
export const cursorTimeSql = (alias: string) =>
  `to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): PageCursor {
  const [createdAt = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!UUID.test(id) || !CURSOR_TIME.test(createdAt) || Number.isNaN(Date.parse(createdAt))) {
    throw ValidationError.of('The cursor is not valid.', 'cursorInvalid', ['cursor']);
  }
  return { createdAt, id };
}
