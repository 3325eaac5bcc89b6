import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { tidySchema } from './tidy';

const tidy = (schema: z.ZodType, io: 'input' | 'output' = 'input') =>
  tidySchema(z.toJSONSchema(schema, { io }) as Record<string, unknown>, { mergeNullable: io === 'output' });

describe('tidySchema', () => {
  it('keeps the format and drops the regex zod writes beside it; a pattern of our own stays', () => {
    const sut = tidy(
      z.object({
        id: z.uuid(),
        at: z.iso.datetime(),
        day: z.iso.date(),
        code: z.string().regex(/^[A-Z]{3}$/),
      }),
    );
    expect(sut.properties).toEqual({
      id: { type: 'string', format: 'uuid' },
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
    });
  });

  it('drops the ±2^53 bounds of z.int() and keeps real ones', () => {
    expect(tidy(z.object({ n: z.int(), page: z.int().min(1).max(200) })).properties).toEqual({
      n: { type: 'integer' },
      page: { type: 'integer', minimum: 1, maximum: 200 },
    });
  });

  it('drops propertyNames that only say a key is a string', () => {
    expect(tidy(z.record(z.string(), z.number()))).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'number' },
    });
    expect(tidy(z.record(z.string(), z.number()))).not.toHaveProperty('propertyNames');
  });

  it('merges a nullable into a type list in outputs, unless the branch says more than its type', () => {
    const sut = tidy(
      z.object({
        at: z.iso.datetime().nullable(),
        state: z.enum(['a', 'b']).nullable(),
        described: z.object({ x: z.string() }).describe('An x.').nullable(),
      }),
      'output',
    );
    expect(sut.properties!.at).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(sut.properties!.state).toEqual({
      anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }],
    });
    expect(sut.properties!.described!.anyOf).toHaveLength(2);
  });

  it('reads property names as names, not keywords', () => {
    const sut = tidy(z.object({ format: z.string(), pattern: z.string(), minimum: z.int() }));
    expect(Object.keys(sut.properties!)).toEqual(['format', 'pattern', 'minimum']);
  });

  it('for validation only (output schemas), drops descriptions, keeps a property named description, and merges what they kept apart', () => {
    const schema = z
      .object({
        description: z.string().nullable().describe('A note for people.'),
        endpoint: z.object({ state: z.enum(['healthy', 'failing']).describe('What it means.') }).nullable(),
      })
      .describe('A webhook.');
    const json = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
    expect(tidySchema(json, { mergeNullable: true, validationOnly: true })).toEqual({
      $schema: expect.any(String),
      type: 'object',
      properties: {
        description: { type: ['string', 'null'] },
        endpoint: {
          type: ['object', 'null'],
          properties: { state: { enum: ['healthy', 'failing'] } },
          required: ['state'],
          additionalProperties: false,
        },
      },
      required: ['description', 'endpoint'],
      additionalProperties: false,
    });
    // Inputs keep theirs: the model reads them.
    expect(tidySchema(json, { mergeNullable: true }).description).toBe('A webhook.');
  });

  it('for validation only, leaves out what the rest of the schema implies, and validates as before with the SDK client’s Ajv', () => {
    const schema = z.object({
      status: z.enum(['running', 'completed']),
      builtin: z.enum(['contact', 'deal']).nullable(),
      deleted: z.literal(true),
      attempt: z.literal(3),
      payload: z.record(z.string(), z.unknown()),
      element: z.union([z.object({ recordId: z.string() }), z.object({ entityId: z.string() })]).nullable(),
    });
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as Record<string, unknown>;
    const sut = tidySchema(json, { mergeNullable: true, validationOnly: true });
    expect(sut.properties).toMatchObject({
      status: { enum: ['running', 'completed'] },
      builtin: { enum: ['contact', 'deal', null] },
      deleted: { const: true },
      attempt: { const: 3 },
      payload: { type: 'object' },
    });
    for (const name of ['status', 'builtin', 'deleted', 'attempt'])
      expect(sut.properties![name]).not.toHaveProperty('type');
    expect(sut.properties!.payload).not.toHaveProperty('additionalProperties');
    expect(sut.properties!.element!.anyOf).toEqual([
      expect.objectContaining({ required: ['recordId'] }),
      expect.objectContaining({ required: ['entityId'] }),
      { type: 'null' },
    ]);
    // A type some of the values do not have stays: it refuses them.
    const kept = tidySchema(
      { type: 'integer', enum: [1, 2.5] },
      { mergeNullable: true, validationOnly: true },
    );
    expect(kept).toEqual({ type: 'integer', enum: [1, 2.5] });

    const validator = new AjvJsonSchemaValidator();
    const [tidied, original] = [sut, json].map((each) => validator.getValidator(each));
    const valid = { status: 'running', builtin: null, deleted: true, attempt: 3, payload: {}, element: null };
    for (const value of [
      valid,
      { ...valid, builtin: 'deal', element: { recordId: 'r' }, payload: { any: [1] } },
      { ...valid, status: 'failed' },
      { ...valid, status: null },
      { ...valid, builtin: 'task' },
      { ...valid, builtin: 1 },
      { ...valid, deleted: false },
      { ...valid, attempt: '3' },
      { ...valid, payload: [] },
      { ...valid, element: { recordId: 'r', entityId: 'e' } },
      { ...valid, element: 'r' },
    ]) {
      expect([value, tidied!(value).valid]).toEqual([value, original!(value).valid]);
    }
    expect(tidied!(valid).valid).toBe(true);
  });
});
