import { z } from 'zod';
import { FIELD_KINDS } from './field-kinds';
import { canonicalUuid } from '../shared/id-spelling';

/** `POST /api/v1/model/discover`: an empty JSON object (docs/api.md#rest-endpoints). */
export const discoverBody = z.strictObject({});

/** `POST /api/v1/model/read`: a type reference (its id, its name, or a built-in key). */
export const readTypeBody = z.strictObject({ type: z.string().trim().min(1).max(100) });

const name = z.string().trim().min(1, 'Required.').max(100);
const fieldConfig = z.strictObject({
  options: z.array(z.string().max(100)).max(100).optional(),
  expression: z.string().max(1000).optional(),
  targetTypeId: canonicalUuid().optional(),
});

export const typeBody = z.strictObject({ name });
export const createFieldBody = z.strictObject({
  name,
  kind: z.enum(FIELD_KINDS),
  config: fieldConfig.optional(),
});
export const updateFieldBody = z
  .strictObject({ name: name.optional(), config: fieldConfig.optional() })
  .refine((body) => body.name !== undefined || body.config !== undefined, 'Send name or config.');
