import { z } from 'zod';
import { id, page, timestamp } from '../http/view-schemas';
import { FIELD_KINDS } from '../record-model/field-kinds';
import { IDENTITY_KINDS } from './records.schemas';

export const valueStateSchema = z
  .discriminatedUnion('state', [
    z.object({ state: z.literal('value'), kind: z.enum(FIELD_KINDS).exclude(['link']), value: z.unknown() }),
    z.object({ state: z.literal('missing') }),
    z.object({ state: z.literal('restricted') }),
    z.object({ state: z.literal('error'), message: z.string() }),
  ])
  .meta({
    description:
      'A field value as a reader sees it. Formatted text is `{ state: "value", kind: "richText", value: { documentJson } }`; a restricted field reads `restricted`.',
  });

export const relatedRecordSchema = z
  .object({
    ref: z.object({ typeId: z.string(), recordId: id }),
    display: z.string().nullable(),
  })
  .meta({
    description:
      "A linked record: its reference and display name (null when it has none or you can't read its type).",
  });

/** What a reader sees of a record (REST, MCP, web app), redacted by their access. */
export const recordViewSchema = z.object({
  id,
  typeId: id,
  version: z.int().min(1),
  status: z.enum(['active', 'trashed', 'erased']),
  createdAt: timestamp,
  updatedAt: timestamp,
  trashedAt: timestamp.nullable(),
  values: z.record(z.string(), valueStateSchema).meta({ description: 'Per field id.' }),
  links: z.record(z.string(), z.array(relatedRecordSchema)).meta({ description: 'Per link field id.' }),
  assignments: z.array(z.object({ id, name: z.string().nullable() })),
  identities: z.array(z.object({ kind: z.enum(IDENTITY_KINDS), value: z.string() })),
});
export type RecordView = z.output<typeof recordViewSchema>;

export const recordPageSchema = page(recordViewSchema);
export type RecordPage = z.output<typeof recordPageSchema>;
