import { z } from 'zod';
import { ValidationError } from '../shared/app-error';
import { ownCharacterRule, parse, safeParseRequest } from './validate';

const controlIssue = (path: (string | number)[]) =>
  expect.objectContaining({ code: 'custom', path, params: { customCode: 'controlCharacter' } });

describe('parse and safeParseRequest', () => {
  it('refuse a control character in what the schema parsed, as the spec’s validation body', () => {
    const schema = z.object({ searchTerm: z.string().optional() });
    expect(() => parse(schema, { searchTerm: 'a\u0000' })).toThrow(ValidationError);
    try {
      parse(schema, { searchTerm: 'a\u0000' });
    } catch (error) {
      expect((error as ValidationError).toBody().error.issues).toEqual([
        { code: 'custom', path: ['searchTerm'], message: expect.any(String), customCode: 'controlCharacter' },
      ]);
    }
  });

  it('check text a schema decodes: JSON in a query parameter', () => {
    const schema = z.object({
      filters: z
        .string()
        .transform((raw) => JSON.parse(raw) as unknown)
        .pipe(z.array(z.object({ value: z.string() }))),
    });
    const result = safeParseRequest(schema, { filters: '[{"value":"\\u0000"}]' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([controlIssue(['filters', 0, 'value'])]);
  });

  it('tell a value of the wrong type from a missing one, and never answer the value', () => {
    const schema = z.object({ rateLimit: z.number(), name: z.string() });
    try {
      parse(schema, { rateLimit: 'twenty, and a secret' });
      throw new Error('parsed');
    } catch (error) {
      const { issues } = (error as ValidationError).toBody().error;
      expect(issues).toEqual([
        expect.objectContaining({ path: ['rateLimit'], customCode: 'invalidType' }),
        expect.objectContaining({ path: ['name'], customCode: 'required' }),
      ]);
      expect(JSON.stringify(issues)).not.toContain('secret');
    }
  });

  it('report the schema’s own refusals first', () => {
    const result = safeParseRequest(z.object({ name: z.string().max(2) }), { name: 'abc\u0000' });
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'too_big', path: ['name'] })]);
  });

  it('leave a field marked with its own rule alone, through optional, nullable, describe and unions', () => {
    const url = ownCharacterRule(z.string(), 'test');
    const body = z.strictObject({ url: url.describe('The URL').nullable(), name: z.string() }).partial();
    expect(safeParseRequest(body, { url: 'a\u0000' }).success).toBe(true);
    expect(safeParseRequest(body, { name: 'a\u0000' }).error?.issues).toEqual([controlIssue(['name'])]);
    const actions = z.discriminatedUnion('action', [
      z.object({ action: z.literal('create'), url }),
      z.object({ action: z.literal('list'), url: z.string() }),
    ]);
    // A key is left alone when any action's field under it has the rule (MCP tools share one input).
    expect(safeParseRequest(actions, { action: 'list', url: 'a\u0000' }).success).toBe(true);
    const other = z.object({ url: z.string() });
    expect(safeParseRequest(other, { url: 'a\u0000' }).error?.issues).toEqual([controlIssue(['url'])]);
  });
});
