import { decodeCursor, type PageCursor } from './cursor';

/** Where a newest-first page starts, decoded: services never see HTTP's cursor encoding. */
export interface PageRequest {
  limit: number;
  /** The last row of the previous page; the page holds the rows strictly before it. */
  after?: PageCursor;
}

/**
 * A parsed list query with its opaque `cursor` decoded into `after` (REST and MCP alike). An
 * ill-formed cursor is refused here: 400 `validation`, `cursorInvalid`, at `cursor`.
 */
export function decodePaging<Query extends { limit: number; cursor?: string }>(
  query: Query,
): Omit<Query, 'cursor'> & PageRequest {
  const { cursor, ...rest } = query;
  return cursor ? { ...rest, after: decodeCursor(cursor) } : rest;
}
