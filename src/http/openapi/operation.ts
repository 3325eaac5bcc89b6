import { z } from 'zod';

/**
 * How an operation of the public API is described (each feature's `*.openapi.ts` lists its own;
 * paths.ts puts them in order): its request schemas are the ones the routes validate with; the
 * document builder (document.ts) adds what every keyed call can answer (401, the key's 403s, 429,
 * 500) and the body and field checks of operations that parse a body or a query.
 */

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';
export type RefusalStatus = 400 | 403 | 404 | 409 | 429;
export type Tag =
  'Meta' | 'Identity' | 'Record model' | 'Records' | 'Webhooks' | 'Events' | 'Messaging' | 'MCP';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  retryAfter?: boolean;
  /** The customCodes this refusal can carry (`x-custom-codes`). */
  customCodes?: readonly string[];
  /** An example body (a success answer's; refusals get one per customCode). */
  example?: unknown;
}

export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI path template: `/api/v1/records/{type}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: Tag;
  /** Needs no x-api-key. */
  public?: boolean;
  pathParams?: Record<string, { description: string; schema: z.ZodType }>;
  query?: z.ZodObject;
  /** Descriptions of this operation's query parameters, over the common ones below. */
  queryDescriptions?: Record<string, string>;
  body?: { schema: z.ZodType; example: unknown };
  /** The answer; with a body, `example` is a realistic one the schema accepts (success-examples.test.ts). */
  success: { status: 200 | 201 | 202 | 204; description: string; schema?: z.ZodType; example?: unknown };
  /** The customCodes of this operation beyond those every keyed call or every body can answer. */
  refusals?: Partial<Record<RefusalStatus, readonly string[]>>;
  /** Responses described by hand (MCP has its own refusal bodies), instead of the REST refusals. */
  responses?: Record<number, ResponseSpec>;
}

/** A request body with an example that must type-check against what the schema accepts. */
export const body = <Schema extends z.ZodType>(schema: Schema, example: z.input<Schema>) => ({
  schema,
  example,
});

/** A success answer with a body, and an example that must type-check against what the schema accepts. */
export const answer = <Schema extends z.ZodType>(
  status: OperationSpec['success']['status'],
  description: string,
  schema: Schema,
  example: z.input<Schema>,
): OperationSpec['success'] => ({ status, description, schema, example });

/**
 * A newest-first list read page by page (docs/api.md#request-format-and-methods), described by what
 * it lists.
 */
export type PagedListSpec = Omit<OperationSpec, 'method' | 'success'> & {
  /** What one page holds, in the plural: `records`. */
  items: string;
  page: z.ZodType;
  /** A page of the list, as the success example. */
  example: unknown;
};

/** A paged list is a GET that answers one page and refuses a cursor it did not issue. */
export function pagedList({ items, page, example, refusals, ...spec }: PagedListSpec): OperationSpec {
  return {
    ...spec,
    method: 'get',
    success: { status: 200, description: `One page of ${items}.`, schema: page, example },
    refusals: { ...refusals, 400: ['cursorInvalid', ...(refusals?.[400] ?? [])] },
  };
}

/** What a delete answers: nothing. */
export const DELETED: OperationSpec['success'] = { status: 204, description: 'Deleted.' };

// ---- customCodes shared by many operations (docs/api.md, "Errors") ------------------------

export const AUTHENTICATION_CODES = ['apiKeyMissing', 'apiKeyInvalid', 'apiKeyExpired'] as const;

export const KEY_AUTHORIZATION_CODES = [
  'workspacePlanRequired',
  'memberInactive',
  'insufficientPermissions',
] as const;

export const BODY_CODES = ['invalidJson', 'unsupportedMediaType', 'requestBodyTooLarge'] as const;

export const FIELD_CODES = [
  'required',
  'invalidType',
  'tooShort',
  'tooLong',
  'invalidValue',
  'unknownField',
  'invalid',
  // A control character in text (src/shared/control-characters.ts, run by src/http/validate.ts).
  'controlCharacter',
] as const;

// ---- Parameters -----------------------------------------------------------------------------

export const uuidParam = (what: string) => ({
  description: `The ${what} id. Anything that is not a well-formed id answers 404.`,
  schema: z.uuid(),
});

/** The query parameters many lists share (an operation's `queryDescriptions` add its own). */
export const QUERY_PARAM_DESCRIPTIONS: Record<string, string> = {
  limit: 'Page size.',
  cursor: 'The `nextCursor` of the previous page.',
  createdFrom: 'A date (whole day, UTC) or a date-time.',
  createdTo: 'A date (whole day, UTC) or a date-time.',
  updatedFrom: 'A date (whole day, UTC) or a date-time.',
  updatedTo: 'A date (whole day, UTC) or a date-time.',
};
