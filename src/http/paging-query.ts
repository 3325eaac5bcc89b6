import { z } from 'zod';

/**
 * Paging of every list endpoint (architecture.md, "paging"). Apart from paging.ts: the request
 * schemas that extend it reach the web app's type check, which knows no Node (cursor.ts).
 */
export const pagingQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
