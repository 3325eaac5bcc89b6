import { z } from 'zod';
import { id, page, timestamp } from '../http/view-schemas';
import { FIELD_KINDS } from '../record-model/field-kinds';
import { IDENTITY_KINDS } from './records.schemas';
import { EXAMPLE } from '../http/view-examples';

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

// ---- The OpenAPI examples (success-examples.test.ts parses each with its schema) -------------

/** A deal as a reader whose role restricts Amount reads it. */
export const recordViewExample = {
  id: EXAMPLE.recordId,
  typeId: EXAMPLE.dealTypeId,
  version: 4,
  status: 'active',
  createdAt: '2025-03-01T09:45:00.000Z',
  updatedAt: '2025-03-04T16:20:03.000Z',
  trashedAt: null,
  values: {
    [EXAMPLE.nameFieldId]: { state: 'value', kind: 'text', value: 'Acme renewal' },
    [EXAMPLE.stageFieldId]: { state: 'value', kind: 'select', value: 'Won' },
    [EXAMPLE.amountFieldId]: { state: 'restricted' },
  },
  links: {
    [EXAMPLE.contactLinkFieldId]: [
      { ref: { typeId: EXAMPLE.contactTypeId, recordId: EXAMPLE.contactRecordId }, display: 'Grace Hopper' },
    ],
  },
  assignments: [{ id: EXAMPLE.userId, name: 'Ada Lovelace' }],
  identities: [{ kind: 'email', value: 'buyer@acme.example' }],
} satisfies RecordView;

export const recordPageExample = {
  data: [recordViewExample],
  nextCursor: 'eyJjcmVhdGVkQXQiOiIyMDI1LTAzLTAxVDA5OjQ1OjAwLjAwMFoifQ',
} satisfies RecordPage;

export const trashedRecordExample = {
  ...recordViewExample,
  version: 5,
  status: 'trashed',
  updatedAt: '2025-03-05T08:00:00.000Z',
  trashedAt: '2025-03-05T08:00:00.000Z',
} satisfies RecordView;
