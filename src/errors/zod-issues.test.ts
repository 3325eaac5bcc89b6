import { z } from 'zod';
import { issuesFromZod, withCode } from './zod-issues';

describe('issuesFromZod', () => {
  const schema = z.strictObject({
    url: z
      .string()
      .refine((value) => value.startsWith('https://'), withCode('urlSchemeNotAllowed', 'Use https.')),
    description: z.string().max(3).optional(),
    events: z.array(z.string()).min(1),
  });

  it('keeps the customCode a rule attached, and the field path', () => {
    const result = schema.safeParse({ url: 'ftp://x', events: ['a'] });
    expect(result.success).toBe(false);
    expect(issuesFromZod(result.error!)).toEqual([
      { code: 'custom', path: ['url'], message: 'Use https.', customCode: 'urlSchemeNotAllowed' },
    ]);
  });

  it('derives stable codes for built-in checks', () => {
    const result = schema.safeParse({ description: 'long', events: [], extra: 1 });
    const codes = Object.fromEntries(
      issuesFromZod(result.error!).map((issue) => [issue.path.join('.') || '(root)', issue.customCode]),
    );
    expect(codes).toEqual({
      url: 'required',
      description: 'tooLong',
      events: 'tooShort',
      '(root)': 'unknownField',
    });
  });

  it('prefixes paths when the checked value sits inside a larger request', () => {
    const result = schema.safeParse({ url: 'https://x', events: [] });
    expect(issuesFromZod(result.error!, ['body'])[0]!.path).toEqual(['body', 'events']);
  });
});
