import { z } from 'zod';

export const IDENTITY_KINDS = ['email', 'phone', 'social'] as const;

/**
 * A record write (REST, MCP, web app). On create everything is optional; on update only what is
 * sent changes: a value set to null is cleared, a link field sent replaces its links, and
 * `assignments` / `identities` sent replace the whole list.
 */
export const recordWriteBody = z.strictObject({
  values: z.record(z.string(), z.unknown()).optional(),
  links: z.record(z.string(), z.array(z.uuid()).max(100)).optional(),
  assignments: z.array(z.uuid()).max(50).optional(),
  identities: z
    .array(z.strictObject({ kind: z.enum(IDENTITY_KINDS), value: z.string().trim().min(1).max(320) }))
    .max(50)
    .optional(),
});
export type RecordWriteBody = z.infer<typeof recordWriteBody>;

/** Paging of every list endpoint (architecture.md, "paging"). */
export const pagingQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
