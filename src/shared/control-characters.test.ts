import { controlCharacterIssues, isMultiLinePath } from './control-characters';

const pathsOf = (value: unknown) => controlCharacterIssues(value).map((issue) => issue.path);

describe('controlCharacterIssues', () => {
  it('refuses NUL, the other C0 controls and DEL in any text, naming the field', () => {
    for (const control of [
      '\u0000',
      '\u0001',
      '\u0008',
      '\u000b',
      '\u000c',
      '\u000e',
      '\u001b',
      '\u001f',
      '\u007f',
    ]) {
      expect(pathsOf({ description: `a${control}b` })).toEqual([['description']]);
      expect(pathsOf({ searchTerm: `${control}` })).toEqual([['searchTerm']]);
    }
    expect(controlCharacterIssues({ name: 'a\u0000' })).toEqual([
      { code: 'custom', path: ['name'], message: expect.any(String), customCode: 'controlCharacter' },
    ]);
  });

  it('takes tabs and line breaks only in multi-line fields', () => {
    const lines = 'one\r\ntwo\tthree\n';
    expect(pathsOf({ description: lines, bodyTemplate: lines, config: { expression: lines } })).toEqual([]);
    expect(pathsOf({ values: { notes: lines, doc: { documentJson: { text: lines } } } })).toEqual([]);
    expect(pathsOf({ filters: [{ fieldId: 'f', op: 'in', value: [lines] }] })).toEqual([]);
    expect(
      pathsOf({
        name: lines,
        searchTerm: 'a\nb',
        url: 'https://example.com/\t',
        secret: 's\r',
        events: ['record.created\n'],
        identities: [{ kind: 'email', value: 'a@b.c\n' }],
        filters: [{ fieldId: 'f\n', op: 'eq', value: 'ok\n' }],
      }),
    ).toEqual([
      ['name'],
      ['searchTerm'],
      ['url'],
      ['secret'],
      ['events', 0],
      ['identities', 0, 'value'],
      ['filters', 0, 'fieldId'],
    ]);
  });

  it('looks into nested objects and arrays, and at object keys (one line each)', () => {
    expect(
      pathsOf({
        recordTrigger: {
          query: { typeId: 't', search: 'x\u0000', filters: [{ op: 'eq', value: 'a\u0000' }] },
        },
        headers: { 'X-\u0000': 'v', 'X-Ok': 'v\u0000' },
        values: { 'Na\nme': 'v' },
      }),
    ).toEqual([
      ['recordTrigger', 'query', 'search'],
      ['recordTrigger', 'query', 'filters', 0, 'value'],
      ['headers', 'X-\u0000'],
      ['headers', 'X-Ok'],
      ['values', 'Na\nme'],
    ]);
  });

  it('leaves the top-level fields with their own rule alone, and what is not text', () => {
    const ownRule = new Set(['url', 'headers']);
    const body = { url: '\u0000', headers: { 'X-\u0000': '\u0000' }, name: '\u0000' };
    expect(controlCharacterIssues(body, ownRule).map((issue) => issue.path)).toEqual([['name']]);
    expect(controlCharacterIssues({ nested: { url: '\u0000' } }, ownRule).map((issue) => issue.path)).toEqual(
      [['nested', 'url']],
    );
    expect(
      pathsOf({ n: 1, b: true, z: null, u: undefined, d: new Date(0), m: new Map([['a', '\u0000']]) }),
    ).toEqual([]);
    expect(pathsOf('plain text')).toEqual([]);
    expect(pathsOf('\u0000')).toEqual([[]]);
  });
});

describe('isMultiLinePath', () => {
  it('is true for the multi-line fields, a record’s values and a filter’s value only', () => {
    expect(isMultiLinePath(['description'])).toBe(true);
    expect(isMultiLinePath(['bodyTemplate'])).toBe(true);
    expect(isMultiLinePath(['config', 'expression'])).toBe(true);
    expect(isMultiLinePath(['values', 'field-id'])).toBe(true);
    expect(isMultiLinePath(['recordSources', 0, 'query', 'filters', 1, 'value', 2])).toBe(true);
    expect(isMultiLinePath(['name'])).toBe(false);
    expect(isMultiLinePath(['filters', 0, 'fieldId'])).toBe(false);
    expect(isMultiLinePath(['identities', 0, 'value'])).toBe(false);
    expect(isMultiLinePath(['headers', 'values'])).toBe(false);
  });
});
