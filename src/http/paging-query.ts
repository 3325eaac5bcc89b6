import { z } from 'zod';

/**
 * Paging of every list endpoint (docs/api.md#request-format-and-methods). Apart from paging.ts: the request
 * schemas that extend it reach the web app's type check, which knows no Node (cursor.ts).
 */
export const pagingQuery = z.object({
  // A query string carries it as text; a client's request type (z.input) takes a number too.
  limit: z.coerce.number<number | string>().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
