import { ValidationError, type ErrorIssue } from '../app-error';
import {
  parseHeaderLines,
  RESERVED_HEADER_NAMES,
  validateWebhookHeaders,
  WEBHOOK_HEADER_NAME_MAX,
  WEBHOOK_HEADER_VALUE_MAX,
  WEBHOOK_HEADERS_MAX_COUNT,
  WEBHOOK_HEADERS_TOTAL_MAX,
} from './webhook-headers';

/** The issues a header set is refused with, as `[path, customCode]` pairs; `[]` when accepted. */
function refusals(headers: Record<string, string>): [ErrorIssue['path'], string | undefined][] {
  try {
    validateWebhookHeaders(headers);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((issue) => {
      expect(issue.code).toBe('invalid');
      return [issue.path, issue.customCode];
    });
  }
}

/** `count` headers `X-H00`, `X-H01`, … each with `value`. */
const many = (count: number, value = 'v'): Record<string, string> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-H${String(i).padStart(2, '0')}`, value]));

describe('validateWebhookHeaders', () => {
  it.each([
    ['no headers', {}],
    ['a bearer token', { Authorization: 'Bearer abc.def' }],
    ['every token character in a name', { "A!#$%&'*+-.^_`|~09z": 'x' }],
    ['an empty value', { 'X-Empty': '' }],
    ['Latin-1 letters and a tab', { 'X-Name': 'Müller\tÿ ©' }],
    ['a name close to a reserved one', { 'X-Webhook-Signature-2': 'x', 'Content-Language': 'de' }],
  ])('accepts %s', (_label, headers) => {
    expect(refusals(headers)).toEqual([]);
  });

  it.each(RESERVED_HEADER_NAMES.flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]))(
    'refuses the reserved name %j',
    (name) => {
      expect(refusals({ [name]: 'x' })).toEqual([[['headers', name], 'webhookHeaderNameReserved']]);
    },
  );

  it.each(['', 'X Space', 'X:Colon', 'X(Paren)', 'X"Quote', 'X/Slash', 'Ümlaut', 'X\tTab', 'X\nNewline'])(
    'refuses the name %j, which is not an HTTP token',
    (name) => {
      expect(refusals({ [name]: 'x' })).toEqual([[['headers', name], 'webhookHeaderNameInvalid']]);
    },
  );

  it.each([
    ['a CR', 'a\rb'],
    ['an LF', 'a\nb'],
    ['a CRLF injection', 'x\r\nX-Evil: 1'],
    ['a NUL', 'a\u0000b'],
    ['another C0 control', 'a\u001bb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a character above U+00FF', 'Łódź'],
    ['an emoji', 'ok 👍'],
  ])('refuses a value with %s', (_label, value) => {
    expect(refusals({ 'X-Value': value })).toEqual([[['headers', 'X-Value'], 'webhookHeaderValueInvalid']]);
  });

  it('refuses names that differ only in case, on the later one', () => {
    expect(refusals({ 'X-Token': 'a', 'x-token': 'b', 'X-TOKEN': 'c' })).toEqual([
      [['headers', 'x-token'], 'webhookHeaderNameDuplicate'],
      [['headers', 'X-TOKEN'], 'webhookHeaderNameDuplicate'],
    ]);
  });

  const name = (length: number) => 'X'.repeat(length);
  it.each([
    ['name at the limit', { [name(WEBHOOK_HEADER_NAME_MAX)]: 'v' }, []],
    [
      'name one past the limit',
      { [name(WEBHOOK_HEADER_NAME_MAX + 1)]: 'v' },
      [[['headers', name(WEBHOOK_HEADER_NAME_MAX + 1)], 'webhookHeaderNameTooLong']],
    ],
    ['value at the limit', { 'X-V': 'v'.repeat(WEBHOOK_HEADER_VALUE_MAX) }, []],
    [
      'value one past the limit',
      { 'X-V': 'v'.repeat(WEBHOOK_HEADER_VALUE_MAX + 1) },
      [[['headers', 'X-V'], 'webhookHeaderValueTooLong']],
    ],
    ['count at the limit', many(WEBHOOK_HEADERS_MAX_COUNT), []],
    [
      'count one past the limit',
      many(WEBHOOK_HEADERS_MAX_COUNT + 1),
      [[['headers'], 'webhookHeadersTooMany']],
    ],
    // 4 × (5-character name + 2,043-character value) = 8,192.
    ['total at the limit', many(4, 'v'.repeat(WEBHOOK_HEADERS_TOTAL_MAX / 4 - 5)), []],
    [
      'total one past the limit',
      {
        ...many(4, 'v'.repeat(WEBHOOK_HEADERS_TOTAL_MAX / 4 - 5)),
        'X-H03': 'v'.repeat(WEBHOOK_HEADERS_TOTAL_MAX / 4 - 4),
      },
      [[['headers'], 'webhookHeadersTooLarge']],
    ],
  ])('%s', (_label, headers, expected) => {
    expect(refusals(headers)).toEqual(expected);
  });

  it('reports every problem at once', () => {
    const headers = { ...many(WEBHOOK_HEADERS_MAX_COUNT), host: 'x', 'Bad Name': 'x', 'X-Line': 'a\nb' };
    expect(refusals(headers)).toEqual([
      [['headers', 'host'], 'webhookHeaderNameReserved'],
      [['headers', 'Bad Name'], 'webhookHeaderNameInvalid'],
      [['headers', 'X-Line'], 'webhookHeaderValueInvalid'],
      [['headers'], 'webhookHeadersTooMany'],
    ]);
  });
});

describe('parseHeaderLines', () => {
  it.each([
    ['an empty field', '', null],
    ['a field of whitespace', '  \n\t\r\n ', null],
    ['one header', 'Authorization: Bearer abc', { Authorization: 'Bearer abc' }],
    ['trimmed names and values', '  X-A  :   1  ', { 'X-A': '1' }],
    [
      'a split at the first colon',
      'X-Url: https://example.com:8080/x',
      { 'X-Url': 'https://example.com:8080/x' },
    ],
    ['an empty value', 'X-Empty:', { 'X-Empty': '' }],
    ['lines without a colon ignored', 'just text\nX-A: 1\n\nmore text', { 'X-A': '1' }],
    ['only lines without a colon', 'no colon here', {}],
    ['CRLF and CR line ends', 'X-A: 1\r\nX-B: 2\rX-C: 3', { 'X-A': '1', 'X-B': '2', 'X-C': '3' }],
    ['the last of an exact repeat', 'X-A: 1\nX-A: 2', { 'X-A': '2' }],
    ['names differing in case, for validation to refuse', 'X-A: 1\nx-a: 2', { 'X-A': '1', 'x-a': '2' }],
    ['an empty name, for validation to refuse', ': orphan', { '': 'orphan' }],
  ])('reads %s', (_label, text, expected) => {
    expect(parseHeaderLines(text)).toEqual(expected);
  });

  it('keeps __proto__ as an ordinary header name', () => {
    const sut = parseHeaderLines('__proto__: x')!;
    expect(Object.keys(sut)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(sut)).toBe(Object.prototype);
  });
});
