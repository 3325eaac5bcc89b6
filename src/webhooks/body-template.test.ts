import { ValidationError } from '../shared/app-error';
import { BODY_TEMPLATE_MAX, RENDERED_BODY_MAX } from '../shared/limits';
import {
  PLACEHOLDER_ROOTS,
  renderBodyTemplate,
  validateBodyTemplate,
  type TemplateEnvelope,
} from './body-template';

/** The customCodes a template is refused with, in order; `[]` when accepted. */
function refusals(template: string): (string | undefined)[] {
  try {
    validateBodyTemplate(template);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    for (const issue of issues) expect(issue).toMatchObject({ code: 'invalid', path: ['bodyTemplate'] });
    return issues.map((issue) => issue.customCode);
  }
}

const envelope = (data: unknown, overrides: Partial<TemplateEnvelope> = {}): TemplateEnvelope => ({
  event: 'record.updated',
  id: 'evt-1',
  timestamp: '2025-03-04T05:06:07.000Z',
  companyId: 'ws-1',
  actorId: 'user-1',
  data,
  ...overrides,
});

/** Renders and parses, failing the test when rendering fails. */
function renderToObject(template: string, env: TemplateEnvelope): unknown {
  const result = renderBodyTemplate(template, env);
  if (!result.ok) throw new Error(`render failed: ${result.reason}`);
  return JSON.parse(result.body);
}

/** `{"a":"xxx…"}` of exactly `length` characters. */
const templateOfLength = (length: number) => `{"a":"${'x'.repeat(length - 8)}"}`;

describe('validateBodyTemplate', () => {
  it.each([
    ['every root placeholder', `{${PLACEHOLDER_ROOTS.map((root) => `"${root}":"{{${root}}}"`).join(',')}}`],
    [
      'paths under data',
      '{"r":"{{data.record.ref.recordId}}","e":"{{data.entityId}}","f":"{{data.record.fields.0.fieldId}}"}',
    ],
    [
      'placeholders amid text, with spaces inside the braces',
      '{"text":"Record {{ data.record.ref.recordId }} was {{event}}"}',
    ],
    ['a placeholder in a key (keys are strings)', '{"{{event}}":true}'],
    [
      'nested structure and other JSON values',
      '{"n":1,"b":false,"z":null,"list":["{{id}}",2,{"deep":"{{data.x}}"}]}',
    ],
    ['an unclosed {{ as plain text', '{"a":"{{ not closed","b":"}}"}'],
    ['an escaped backslash before a placeholder', '{"a":"\\\\{{data.x}}"}'],
    ['an escaped quote before a placeholder', '{"a":"say \\"{{event}}\\""}'],
    ['an empty object with whitespace around', '  {}\n'],
    ['at the size limit', templateOfLength(BODY_TEMPLATE_MAX)],
  ])('accepts %s', (_label, template) => {
    expect(refusals(template)).toEqual([]);
  });

  it.each([
    ['one past the size limit', templateOfLength(BODY_TEMPLATE_MAX + 1), ['bodyTemplateTooLong']],
    ['an unknown placeholder', '{"a":"{{foo}}"}', ['bodyTemplatePlaceholderUnknown']],
    ['an empty path segment', '{"a":"{{data..x}}"}', ['bodyTemplatePlaceholderUnknown']],
    ['a trailing dot', '{"a":"{{data.}}"}', ['bodyTemplatePlaceholderUnknown']],
    ['a path under a root other than data', '{"a":"{{event.name}}"}', ['bodyTemplatePlaceholderUnknown']],
    ['a root in the wrong case', '{"a":"{{Data.x}}"}', ['bodyTemplatePlaceholderUnknown']],
    ['empty braces', '{"a":"{{}}"}', ['bodyTemplatePlaceholderUnknown']],
    ['triple braces', '{"a":"{{{data.x}}}"}', ['bodyTemplatePlaceholderUnknown']],
    [
      'the same unknown placeholder twice, once',
      '{"a":"{{foo}}","b":"{{foo}}"}',
      ['bodyTemplatePlaceholderUnknown'],
    ],
    ['a placeholder in a number position', '{"n": {{data.count}}}', ['bodyTemplatePlaceholderOutsideString']],
    ['a placeholder as an array item', '{"list": [1, {{id}}]}', ['bodyTemplatePlaceholderOutsideString']],
    [
      'an unknown placeholder outside a string',
      '{"n": {{foo}}}',
      ['bodyTemplatePlaceholderUnknown', 'bodyTemplatePlaceholderOutsideString'],
    ],
    ['text that is not JSON', 'event=created', ['bodyTemplateInvalidJson']],
    [
      'form-encoded text with a placeholder',
      'event={{event}}',
      ['bodyTemplatePlaceholderOutsideString', 'bodyTemplateInvalidJson'],
    ],
    ['an empty template', '', ['bodyTemplateInvalidJson']],
    ['a truncated document', '{"a":"{{event}}"', ['bodyTemplateInvalidJson']],
    ['a trailing comma', '{"a":"{{event}}",}', ['bodyTemplateInvalidJson']],
    ['a raw line break in a string', '{"a":"line\nbreak"}', ['bodyTemplateInvalidJson']],
    [
      'a placeholder outside a string in an invalid document',
      '{"n": {{data.count}},}',
      ['bodyTemplatePlaceholderOutsideString', 'bodyTemplateInvalidJson'],
    ],
    ['an array', '["{{event}}"]', ['bodyTemplateNotObject']],
    ['a string', '"{{data}}"', ['bodyTemplateNotObject']],
    ['a number', '42', ['bodyTemplateNotObject']],
    ['null', 'null', ['bodyTemplateNotObject']],
    [
      'an array with a placeholder outside a string',
      '[{{data}}]',
      ['bodyTemplatePlaceholderOutsideString', 'bodyTemplateNotObject'],
    ],
  ])('refuses %s', (_label, template, expected) => {
    expect(refusals(template)).toEqual(expected);
  });

  it('names the placeholder and keeps JSON error positions true to the template', () => {
    const template = '{"n": {{data.count}} x}';
    let messages: string[] = [];
    try {
      validateBodyTemplate(template);
    } catch (error) {
      messages = (error as ValidationError).issues.map((issue) => issue.message);
    }
    expect(messages).toEqual([
      expect.stringContaining('{{data.count}}'),
      expect.stringContaining(`position ${template.indexOf('x')}`),
    ]);
  });
});

describe('renderBodyTemplate', () => {
  it('replaces every root placeholder with its envelope value', () => {
    const template = `{${PLACEHOLDER_ROOTS.map((root) => `"${root}":"{{${root}}}"`).join(',')}}`;
    expect(renderToObject(template, envelope({ entityId: 'm-1' }))).toEqual({
      event: 'record.updated',
      id: 'evt-1',
      timestamp: '2025-03-04T05:06:07.000Z',
      companyId: 'ws-1',
      actorId: 'user-1',
      data: '{"entityId":"m-1"}',
    });
  });

  const data = {
    text: 'Ada',
    count: 42,
    ratio: 0.5,
    flag: false,
    none: null,
    list: ['a', 'b'],
    record: { ref: { typeId: 't-1', recordId: 'r-1' } },
  };
  it.each([
    ['a string as is', '{{data.text}}', 'Ada'],
    ['a number as its text', '{{data.count}}', '42'],
    ['a fraction as its text', '{{data.ratio}}', '0.5'],
    ['a boolean as its text', '{{data.flag}}', 'false'],
    ['null as empty text', '{{data.none}}', ''],
    ['a missing path as empty text', '{{data.record.ref.nope}}', ''],
    ['a path through a missing object as empty text', '{{data.nope.deeper}}', ''],
    ['a path through a scalar as empty text', '{{data.text.length}}', ''],
    ['an object as its JSON text', '{{data.record.ref}}', '{"typeId":"t-1","recordId":"r-1"}'],
    ['an array as its JSON text', '{{data.list}}', '["a","b"]'],
    ['an array item by index', '{{data.list.1}}', 'b'],
    ['no array property other than an index', '{{data.list.length}}', ''],
    ['no inherited property', '{{data.constructor}}', ''],
    ['no prototype', '{{data.__proto__}}', ''],
    ['a deep path', '{{data.record.ref.recordId}}', 'r-1'],
    ['several placeholders amid text', 'id {{id}} of {{data.text}}!', 'id evt-1 of Ada!'],
    ['spaces inside the braces', '{{ data.text }}', 'Ada'],
  ])('inserts %s', (_label, inner, expected) => {
    expect(renderToObject(`{"v":"${inner}"}`, envelope(data))).toEqual({ v: expected });
  });

  it('renders a null actorId (messaging events) as empty text', () => {
    expect(renderToObject('{"a":"{{actorId}}"}', envelope({}, { actorId: null }))).toEqual({ a: '' });
  });

  it('keeps the template text outside placeholders byte for byte', () => {
    const template = '{\n  "a" : "x {{event}} y",\n  "n": 1.50, "u": "\\u00e9"\n}\n';
    expect(renderBodyTemplate(template, envelope({}))).toEqual({
      ok: true,
      body: '{\n  "a" : "x record.updated y",\n  "n": 1.50, "u": "\\u00e9"\n}\n',
    });
  });

  it.each([
    ['a quote', 'say "hi"'],
    ['a string-and-object breakout', '", "admin": true, "x": "'],
    ['a backslash', 'C:\\path\\'],
    ['a trailing backslash', 'ends with \\'],
    ['braces', '}}{{ }'],
    ['a placeholder, which is not expanded again', '{{data.secret}} {{event}}'],
    ['line breaks and a tab', 'one\ntwo\r\nthree\tfour'],
    ['NUL and other controls', 'a\u0000b\u001fc\u007f'],
    ['U+2028 and U+2029', 'a\u2028b\u2029c'],
    ['a lone surrogate', 'a\ud800b'],
    ['non-ASCII text', 'Zoë 👍 東京'],
  ])('escapes a value with %s so the structure holds', (_label, value) => {
    const template = '{"k":"pre {{data.v}} post","n":{"x":"{{data.v}}"},"after":"{{event}}"}';
    const result = renderBodyTemplate(template, envelope({ v: value, secret: 'hidden' }));
    expect(result.ok).toBe(true);
    const body = (result as { body: string }).body;
    // eslint-disable-next-line no-control-regex -- the point: no raw control character gets through
    expect(body).not.toMatch(/[\u0000-\u001f\u2028\u2029]/);
    expect(body).not.toContain('hidden');
    expect(JSON.parse(body)).toEqual({
      k: `pre ${value} post`,
      n: { x: value },
      after: 'record.updated',
    });
  });

  it('escapes a value placed in a key', () => {
    expect(renderToObject('{"{{data.v}}":1}', envelope({ v: 'a"b' }))).toEqual({ 'a"b': 1 });
  });

  const valueOfLength = (bodyLength: number) => 'x'.repeat(bodyLength - '{"a":""}'.length);
  it.each([
    ['at the limit', RENDERED_BODY_MAX, true],
    ['one past the limit', RENDERED_BODY_MAX + 1, false],
  ])('measures the rendered body %s', (_label, bodyLength, ok) => {
    const result = renderBodyTemplate('{"a":"{{data.v}}"}', envelope({ v: valueOfLength(bodyLength) }));
    expect(result.ok).toBe(ok);
    if (result.ok) expect(result.body).toHaveLength(RENDERED_BODY_MAX);
    else expect(result.reason).toContain(String(RENDERED_BODY_MAX));
  });

  it('counts the escaped text towards the limit', () => {
    // 70,000 quotes are 140,000 characters once escaped.
    expect(renderBodyTemplate('{"a":"{{data.v}}"}', envelope({ v: '"'.repeat(70_000) })).ok).toBe(false);
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  it.each([
    ['an unknown placeholder', '{"a":"{{foo}}"}', {}, /\{\{foo\}\}/],
    ['a placeholder outside a string', '{"a":{{data.n}}}', { n: 1 }, /inside a JSON string/],
    ['a template that is not JSON', '{"a":', {}, /not valid JSON/],
    ['a template rendering to an array', '["{{event}}"]', {}, /JSON object, not an array/],
    ['a template rendering to a string', '"{{event}}"', {}, /JSON object, not a string/],
    ['a value JSON cannot hold (a cycle)', '{"a":"{{data}}"}', cyclic, /could not be rendered/],
    [
      'a value JSON cannot hold (a BigInt in an object)',
      '{"a":"{{data}}"}',
      { n: 10n },
      /could not be rendered/,
    ],
  ])('fails without throwing on %s', (_label, template, data, reason) => {
    const result = renderBodyTemplate(template, envelope(data));
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('inserts a top-level BigInt as its digits', () => {
    expect(renderToObject('{"a":"{{data.n}}"}', envelope({ n: 12345678901234567890n }))).toEqual({
      a: '12345678901234567890',
    });
  });
});
