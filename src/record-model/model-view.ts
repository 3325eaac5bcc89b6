import { z } from 'zod';
import { id, timestamp } from '../http/view-schemas';
import { BUILTIN_TYPES } from './builtin-types';
import { FIELD_KINDS } from './field-kinds';

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
