import { z } from 'zod';
import { inputJsonSchema, outputJsonSchema } from './json-schemas';

describe('inputJsonSchema', () => {
  const byAction = z.discriminatedUnion('action', [
    z.strictObject({
      action: z.literal('get').describe('Reads one.'),
      id: z.uuid().describe('The thing.'),
    }),
    z.strictObject({
      action: z.literal('list').describe('Lists them.'),
      limit: z.int().max(10).optional().describe('Page size.'),
      id: z.uuid().optional().describe('Only under this parent.'),
    }),
    z.strictObject({ action: z.literal('count').describe('Counts.'), id: z.string().describe('A name.') }),
  ]);

  it('advertises a discriminated union as one flat object, without a root oneOf', () => {
    const schema = inputJsonSchema(byAction);
    expect(schema).not.toHaveProperty('oneOf');
    expect(schema).toMatchObject({ type: 'object', required: ['action'], additionalProperties: false });
    expect(schema.properties!.action).toMatchObject({ type: 'string', enum: ['get', 'list', 'count'] });
    expect(schema.properties!.action!.description).toBe(
      [
        'What to do; each action takes only its own inputs:',
        '- get: Reads one. Inputs: id (required).',
        '- list: Lists them. Inputs: limit, id.',
        '- count: Counts. Inputs: id (required).',
      ].join('\n'),
    );
  });

  it('says where each input applies, keeps distinct shapes apart, and merges equal ones', () => {
    const { limit, id } = inputJsonSchema(byAction).properties!;
    expect(limit).toMatchObject({ type: 'integer', maximum: 10 });
    expect(limit!.description).toBe('Page size.');
    expect(id!.anyOf).toEqual([
      expect.objectContaining({ type: 'string', format: 'uuid' }),
      { type: 'string' },
    ]);
    expect(id!.description).toBe('get: The thing. list: Only under this parent. count: A name.');
  });

  it('says "those of" an earlier action whose inputs another takes, keeps a description shared by most plain, and drops a shape another accepts whole', () => {
    const fields = { a: z.string().describe('A.'), b: z.string(), c: z.string(), d: z.string() };
    const schema = inputJsonSchema(
      z.discriminatedUnion('action', [
        z.strictObject({ action: z.literal('create').describe('Makes.'), ...fields }),
        z.strictObject({
          action: z.literal('update').describe('Changes.'),
          ...z.object(fields).partial().shape,
          id: z.uuid().describe('The thing.'),
        }),
        z.strictObject({ action: z.literal('find').describe('Finds.'), a: z.string().describe('Another.') }),
        z.strictObject({
          action: z.literal('send').describe('Sends.'),
          id: z.string().max(36).describe('Its id, or a short one.'),
          kind: z.enum(['x.created', 'x.deleted']).describe('One of its kinds.'),
        }),
        z.strictObject({
          action: z.literal('filter').describe('Filters.'),
          kind: z.string().max(100).describe('A kind.'),
        }),
      ]),
    ).properties!;
    expect(schema.action!.description).toContain(
      '- update: Changes. Inputs: those of create (none required), id (required).',
    );
    expect(schema.a!.description).toBe('A. find: Another.');
    expect(schema.id).toEqual({
      type: 'string',
      maxLength: 36,
      description: 'update: The thing. send: Its id, or a short one.',
    });
    expect(schema.kind).toMatchObject({ type: 'string', maxLength: 100 });
    expect(schema.kind).not.toHaveProperty('anyOf');
  });

  it('leaves a plain object as zod writes it, without $schema (MCP reads 2020-12 by default)', () => {
    const plain = z.strictObject({ q: z.string().describe('Query.') });
    const { $schema, ...written } = z.toJSONSchema(plain, { io: 'input' });
    expect($schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(inputJsonSchema(plain)).toEqual(written);
  });
});

describe('outputJsonSchema', () => {
  it('is draft 7 with an object root, also for a union of results', () => {
    const union = z.union([z.object({ a: z.string() }), z.object({ b: z.int() })]);
    expect(outputJsonSchema(union)).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      anyOf: [
        { type: 'object', required: ['a'], additionalProperties: false },
        { type: 'object', required: ['b'], additionalProperties: false },
      ],
    });
    expect(outputJsonSchema(z.object({ a: z.string() }))).toMatchObject({ type: 'object' });
  });
});
