import { decodeCursor, encodeCursor, type PageCursor } from './cursor';

/** Where a newest-first page starts, decoded: services never see HTTP's cursor encoding. */
export interface PageRequest {
  limit: number;
  /** The last row of the previous page; the page holds the rows strictly before it. */
  after?: PageCursor;
}

/** One page as a service returns it: its items and where the next page starts (null on the last). */
export interface Page<Item> {
  data: Item[];
  next: PageCursor | null;
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

/**
 * A page as REST and MCP answer it: where the next page starts, as the opaque `nextCursor`, and
 * whatever else the list adds to its page (the delivery log's `total`).
 */
export type EncodedPage<P extends Page<unknown>> = Omit<P, 'next'> & { nextCursor: string | null };

export function encodePage<P extends Page<unknown>>(page: P): EncodedPage<P> {
  const { next, ...rest } = page;
  return { ...rest, nextCursor: next && encodeCursor(next) };
}
