import { z } from 'zod';
import { pagingQuery } from '../http/paging-query';
import { canonicalUuid } from '../shared/id-spelling';
import { recordFilterSchema } from './query/record-query';

export const IDENTITY_KINDS = ['email', 'phone', 'social'] as const;

/**
 * A record write (REST, MCP, web app). On create everything is optional; on update only what is
 * sent changes: a value set to null is cleared, a link field sent replaces its links, and
 * `assignments` / `identities` sent replace the whole list. `values` and `links` name a field by
 * its id or its name (`resolveWriteFields` in `src/record-model/field-refs.ts`).
 */
export const recordWriteBody = z.strictObject({
  values: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Field to value, the field named by its id or its name (trimmed, case-insensitive; an id always means ' +
        'its own field); null clears a value.',
    ),
  links: z
    .record(z.string(), z.array(canonicalUuid()).max(100))
    .optional()
    .describe(
      "Link field (by id or name) to the ids of the records it links to; replaces that field's links.",
    ),
  assignments: z.array(canonicalUuid()).max(50).optional(),
  identities: z
    .array(z.strictObject({ kind: z.enum(IDENTITY_KINDS), value: z.string().trim().min(1).max(320) }))
    .max(50)
    .optional(),
});
export type RecordWriteBody = z.infer<typeof recordWriteBody>;

/** `GET …/records/{type}`: search, filters (a JSON array in the query string), Trash, paging. */
export const listRecordsQuery = pagingQuery.extend({
  search: z.string().max(200).optional(),
  filters: z
    .string()
    .max(20_000)
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'filters must be a JSON array.',
          params: { customCode: 'queryFiltersInvalid' },
        });
        return z.NEVER;
      }
    })
    .pipe(z.array(recordFilterSchema).max(20).optional()),
  status: z.enum(['active', 'trashed']).default('active'),
});
