import { z } from 'zod';
import { id, timestamp } from '../http/view-schemas';
import { BUILTIN_TYPES } from './builtin-types';
import { FIELD_KINDS, type FieldKind } from './field-kinds';
import { EXAMPLE } from '../http/view-examples';

const builtin = z
  .enum(BUILTIN_TYPES)
  .nullable()
  .meta({ description: 'The built-in key, or null for a custom type.' });
const fieldKind = z.enum(FIELD_KINDS);
const fieldConfig = z.object({
  options: z.array(z.string()).optional(),
  expression: z.string().optional(),
  targetTypeId: z.string().optional(),
});

/** `model/discover`: the record types the caller can read. */
export const modelDiscoverySchema = z.object({
  schemaRevision: z.int().min(0),
  types: z.array(z.object({ id, name: z.string(), builtin, fieldCount: z.int().min(0) })),
});
export type ModelDiscovery = z.output<typeof modelDiscoverySchema>;

/** `model/read`: one type with its fields' stable ids, and the schema revision. */
export const modelTypeReadSchema = z.object({
  schemaRevision: z.int().min(0),
  type: z.object({
    id,
    name: z.string(),
    builtin,
    fields: z.array(
      z.object({
        id,
        typeId: id,
        name: z.string(),
        kind: fieldKind,
        config: fieldConfig,
        position: z.int(),
        restricted: z.boolean().meta({ description: 'Your role cannot read this field.' }),
      }),
    ),
  }),
});
export type ModelTypeRead = z.output<typeof modelTypeReadSchema>;

/** What a model change answers: the stored type or field (`deletedAt` is absent on creation). */
export const recordTypeResourceSchema = z.object({
  id,
  workspaceId: id,
  builtin,
  name: z.string(),
  createdAt: timestamp,
  deletedAt: timestamp.nullable().optional(),
});
export type RecordTypeResource = z.output<typeof recordTypeResourceSchema>;

export const recordFieldResourceSchema = z.object({
  id,
  workspaceId: id,
  typeId: id,
  name: z.string(),
  kind: fieldKind,
  config: fieldConfig,
  position: z.int(),
  createdAt: timestamp,
  deletedAt: timestamp.nullable().optional(),
});
export type RecordFieldResource = z.output<typeof recordFieldResourceSchema>;

// ---- The OpenAPI examples (success-examples.test.ts parses each with its schema) -------------

const SCHEMA_REVISION = 12;

export const modelDiscoveryExample = {
  schemaRevision: SCHEMA_REVISION,
  types: [
    { id: EXAMPLE.contactTypeId, name: 'Contacts', builtin: 'contact', fieldCount: 4 },
    { id: EXAMPLE.dealTypeId, name: 'Deals', builtin: 'deal', fieldCount: 4 },
  ],
} satisfies ModelDiscovery;

const dealField = (id: string, name: string, kind: FieldKind, position: number, config = {}) => ({
  id,
  typeId: EXAMPLE.dealTypeId,
  name,
  kind,
  config,
  position,
  restricted: false,
});

export const modelTypeReadExample = {
  schemaRevision: SCHEMA_REVISION,
  type: {
    id: EXAMPLE.dealTypeId,
    name: 'Deals',
    builtin: 'deal',
    fields: [
      dealField(EXAMPLE.nameFieldId, 'Name', 'text', 0),
      dealField(EXAMPLE.stageFieldId, 'Stage', 'select', 1, { options: ['Lead', 'Won', 'Lost'] }),
      { ...dealField(EXAMPLE.amountFieldId, 'Amount', 'number', 2), restricted: true },
      dealField(EXAMPLE.contactLinkFieldId, 'Contact', 'link', 3, { targetTypeId: EXAMPLE.contactTypeId }),
    ],
  },
} satisfies ModelTypeRead;

export const recordTypeResourceExample = {
  id: 'f3b7d1e9-2c4a-4d68-9e0b-5a1c7f3d9b24',
  workspaceId: EXAMPLE.workspaceId,
  builtin: null,
  name: 'Projects',
  createdAt: '2025-03-04T10:00:00.000Z',
} satisfies RecordTypeResource;

export const recordFieldResourceExample = {
  id: EXAMPLE.stageFieldId,
  workspaceId: EXAMPLE.workspaceId,
  typeId: EXAMPLE.dealTypeId,
  name: 'Stage',
  kind: 'select',
  config: { options: ['Lead', 'Won', 'Lost'] },
  position: 1,
  createdAt: '2025-03-04T10:05:00.000Z',
} satisfies RecordFieldResource;
