import { z } from 'zod';
import { STATUS_BY_KIND, type AppError, type ErrorKind } from '../shared/app-error';

/**
 * Building blocks of the response views' zod schemas. Each feature declares its views with these
 * and derives their types (`z.output`), so the OpenAPI document, the tests that parse real answers
 * and the web app read one description. Light on purpose: the web app imports the view types.
 */

export const id = z.uuid();
export const timestamp = z.iso.datetime();

/** A page of a newest-first list (docs/api.md#request-format-and-methods). */
export const page = <Item extends z.ZodType>(item: Item) =>
  z.object({
    data: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  });

export const refusalSchema = z
  .object({
    error: z.object({
      kind: z.enum(Object.keys(STATUS_BY_KIND) as ErrorKind[]),
      issues: z.array(
        z.object({
          code: z.string(),
          path: z.array(z.union([z.string(), z.number()])),
          message: z.string().meta({ description: 'For people; branch on customCode instead.' }),
          customCode: z.string().optional(),
        }),
      ),
      retryable: z.boolean().optional(),
    }),
  })
  .meta({ description: 'The refusal body of every REST endpoint (docs/api.md#errors).' });

export type Refusal = z.output<typeof refusalSchema>;

// ---- Held equal to the code's answers, where the code does not build them from the view type --

/** True when A and B are assignable both ways. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Check<T extends true> = T;

/** JSON turns dates into ISO strings. */
export type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export type RefusalChecks = [Check<Same<Refusal, ReturnType<AppError['toBody']>>>];
