import { z } from 'zod';
import type { AppError } from '../shared/app-error';
import { validationErrorFromZod } from '../errors/zod-issues';

/** Parses a request part with its zod schema; a refusal is the spec's validation body. */
export function parse<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationErrorFromZod(result.error);
  return result.data;
}

const uuid = z.uuid();

/** A path id: anything that is not a well-formed id cannot exist, so it answers not_found. */
export function parseId(value: unknown, notFound: () => AppError): string {
  const result = uuid.safeParse(value);
  if (!result.success) throw notFound();
  return result.data;
}
