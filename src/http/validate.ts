import { z } from 'zod';
import type { AppError } from '../shared/app-error';
import { controlCharacterIssues } from '../shared/control-characters';
import { canonicalUuid } from '../shared/id-spelling';
import { validationErrorFromZod } from '../errors/zod-issues';

/**
 * Request fields whose own rule refuses control characters, with its own customCode, before
 * anything stores them (a webhook's URL and headers, passwords): the parsing layer's check leaves
 * them to that rule. Marked on the field's schema (`ownCharacterRule`); copies made with
 * `.describe()` or `.meta()` keep the mark.
 */
const ownRuleRegistry = z.registry<{ rule: string }>();

/** Marks `schema` as checked for control characters by `rule` (a file name, for the reader). */
export function ownCharacterRule<Schema extends z.ZodType>(schema: Schema, rule: string): Schema {
  ownRuleRegistry.add(schema, { rule });
  return schema;
}

/**
 * Parses a request part (a query, a JSON body, an MCP tool's arguments) with its zod schema, then
 * holds every string it parsed to the control-character rule (src/shared/control-characters.ts):
 * after the schema, so text a schema decodes (the JSON in `filters`) is checked too, and before any
 * service, so a NUL never reaches PostgreSQL.
 */
export function safeParseRequest<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.ZodSafeParseResult<z.output<Schema>> {
  // With the input on each issue, a value of the wrong type is told from a missing one
  // (defaultCustomCode: invalidType or required); the issues answered never carry it.
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (!result.success) return result;
  const issues = controlCharacterIssues(result.data, fieldsWithOwnRule(schema));
  if (issues.length === 0) return result;
  return {
    success: false,
    error: new z.ZodError(
      issues.map(({ path, message, customCode }) => ({
        code: 'custom' as const,
        path,
        message,
        input: undefined,
        params: { customCode },
      })),
    ) as z.ZodError<z.output<Schema>>,
  };
}

/** Parses a request part with its zod schema; a refusal is the spec's validation body. */
export function parse<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = safeParseRequest(schema, value);
  if (!result.success) throw validationErrorFromZod(result.error);
  return result.data;
}

// An id in a path in its one spelling (src/shared/id-spelling.ts): the rules compare ids exactly.
const uuid = canonicalUuid();

/** A path id: anything that is not a well-formed id cannot exist, so it answers not_found. */
export function parseId(value: unknown, notFound: () => AppError): string {
  const result = uuid.safeParse(value);
  if (!result.success) throw notFound();
  return result.data;
}

// ---- Which top-level fields a request schema leaves to their own rule ----------------------

const ownRuleFieldsOf = new WeakMap<z.ZodType, ReadonlySet<string>>();

function fieldsWithOwnRule(schema: z.ZodType): ReadonlySet<string> {
  let fields = ownRuleFieldsOf.get(schema);
  if (!fields) {
    fields = new Set(
      shapesOf(schema).flatMap((shape) =>
        Object.entries(shape).flatMap(([key, field]) => (hasOwnRule(field) ? [key] : [])),
      ),
    );
    ownRuleFieldsOf.set(schema, fields);
  }
  return fields;
}

type Def = { type: string; shape?: Record<string, z.ZodType>; options?: z.ZodType[]; in?: z.ZodType };
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The object shapes of a request schema: its own, each union member's (MCP actions), a pipe's input. */
function shapesOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const def = defOf(schema);
  if (def.type === 'object' && def.shape) return [def.shape];
  if (def.type === 'union' && def.options) return def.options.flatMap(shapesOf);
  if (def.type === 'pipe' && def.in) return shapesOf(def.in);
  return [];
}

/** Whether a field, or the schema it wraps (optional, nullable, with a default), carries the mark. */
function hasOwnRule(field: z.ZodType): boolean {
  if (ownRuleRegistry.get(field)) return true;
  const inner = (field._zod.def as { innerType?: z.ZodType }).innerType;
  return inner ? hasOwnRule(inner) : false;
}
