import { ValidationError } from '../../shared/app-error';
import type { FieldDef, FieldKind } from '../field-kinds';
import { evaluateFormula, formulaFieldRefs, parseFormula, type FormulaResult } from './formula';
import { computeFormulas, validateFormula } from './formula-fields';

const TYPE = '6f1c2d4e-0000-4000-8000-000000000001';
const OTHER_TYPE = '6f1c2d4e-0000-4000-8000-000000000002';

function field(id: string, kind: FieldKind, expression?: string, typeId = TYPE): FieldDef {
  return { id, typeId, name: id.toUpperCase(), kind, config: expression ? { expression } : {}, position: 0 };
}

function refusal(run: () => unknown): { customCode?: string; message: string; path: unknown[] } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const issue = (error as ValidationError).issues[0]!;
    return { customCode: issue.customCode, message: issue.message, path: issue.path };
  }
  throw new Error('expected a refusal');
}

function evaluate(expression: string, values: Record<string, unknown> = {}): FormulaResult {
  return evaluateFormula(parseFormula(expression), (fieldId) => values[fieldId]);
}

const value = (n: number): FormulaResult => ({ state: 'value', value: n });

describe('parseFormula', () => {
  it('builds the tree with arithmetic precedence and left associativity', () => {
    expect(parseFormula('1 + 2 * 3')).toEqual({
      type: 'binary',
      op: '+',
      left: { type: 'number', value: 1 },
      right: {
        type: 'binary',
        op: '*',
        left: { type: 'number', value: 2 },
        right: { type: 'number', value: 3 },
      },
    });
    expect(evaluate('10 - 4 - 3')).toEqual(value(3));
    expect(evaluate('24 / 4 / 2')).toEqual(value(3));
    expect(evaluate('(1 + 2) * 3')).toEqual(value(9));
  });

  it('reads decimals, field references, unary minus and functions, with or without spaces', () => {
    expect(parseFormula('-{a_1}*3.5')).toEqual({
      type: 'binary',
      op: '*',
      left: { type: 'negate', operand: { type: 'field', fieldId: 'a_1' } },
      right: { type: 'number', value: 3.5 },
    });
    expect(parseFormula(' ROUND( {x} , 2 ) ')).toEqual({
      type: 'call',
      name: 'round',
      args: [
        { type: 'field', fieldId: 'x' },
        { type: 'number', value: 2 },
      ],
    });
    expect(evaluate('2 * -3')).toEqual(value(-6));
    expect(evaluate('--2')).toEqual(value(2));
  });

  it('accepts UUID field ids', () => {
    const id = '0d9a4f7e-3b1c-4e2a-9f00-1234567890ab';
    expect(parseFormula(`{${id}}`)).toEqual({ type: 'field', fieldId: id });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['1 +', 'ends too early'],
    ['1 2', 'Unexpected number 2 at position 3'],
    ['(1 + 2', "Expected ')' but found end of expression"],
    ['1 + 2)', "Unexpected ')' at position 6"],
    ['{}', 'position 1'],
    ['{a b}', 'position 1'],
    ['{a', 'position 1'],
    ['1 % 2', "Unexpected character '%' at position 3"],
    ['1.', "Unexpected character '.' at position 2"],
    ['.5', "Unexpected character '.' at position 1"],
    ['1e5', "Unexpected 'e5' at position 2"],
    ['+1', "Unexpected '+' at position 1"],
    ['sqrt(4)', "Unknown function 'sqrt' at position 1"],
    ['price * 2', "Unknown function 'price'"],
    ['round', "Expected '(' but found end of expression"],
    ['round()', "Unexpected ')' at position 7"],
    ['round(1, 2, 3)', 'takes 1 to 2 argument(s), not 3'],
    ['abs(1, 2)', 'takes 1 argument(s), not 2'],
    ['min(1,)', "Unexpected ')'"],
  ])('refuses %j (%s)', (expression, problem) => {
    const sut = refusal(() => parseFormula(expression));
    expect(sut.customCode).toBe('formulaInvalid');
    expect(sut.path).toEqual(['config', 'expression']);
    expect(sut.message).toContain(problem);
  });

  it('refuses a number too large to hold', () => {
    expect(refusal(() => parseFormula('9'.repeat(400)))).toMatchObject({
      customCode: 'formulaInvalid',
      message: 'The number at position 1 is too large.',
    });
  });

  it('limits the length to 1,000 characters', () => {
    const atLimit = `11${'+1'.repeat(499)}`;
    expect(atLimit).toHaveLength(1000);
    expect(evaluate(atLimit)).toEqual(value(510));
    expect(refusal(() => parseFormula(`${atLimit} `)).customCode).toBe('formulaTooLong');
  });

  it('limits nesting to 50 levels of parentheses, calls and unary minus', () => {
    expect(evaluate(`${'('.repeat(50)}1${')'.repeat(50)}`)).toEqual(value(1));
    expect(refusal(() => parseFormula(`${'('.repeat(51)}1${')'.repeat(51)}`)).customCode).toBe(
      'formulaTooDeep',
    );
    expect(refusal(() => parseFormula(`${'abs('.repeat(51)}1${')'.repeat(51)}`)).customCode).toBe(
      'formulaTooDeep',
    );
    expect(refusal(() => parseFormula(`${'-'.repeat(51)}1`)).customCode).toBe('formulaTooDeep');
  });

  it('never runs JavaScript', () => {
    expect(refusal(() => parseFormula('constructor.constructor("return 1")()')).customCode).toBe(
      'formulaInvalid',
    );
  });
});

describe('formulaFieldRefs', () => {
  it('lists each referenced field once, in order of first appearance', () => {
    expect(formulaFieldRefs(parseFormula('max({b}, {a}) + {b} * -{c} / round({a}, {d})'))).toEqual([
      'b',
      'a',
      'c',
      'd',
    ]);
    expect(formulaFieldRefs(parseFormula('1 + 2'))).toEqual([]);
  });
});

describe('evaluateFormula', () => {
  it('computes arithmetic over field values', () => {
    expect(evaluate('{price} * {qty} / 100', { price: 250, qty: 3 })).toEqual(value(7.5));
    expect(evaluate('0.1 + 0.2')).toEqual(value(0.1 + 0.2)); // plain JS arithmetic
  });

  it('implements abs, min, max and round (half away from zero, optional digits)', () => {
    expect(evaluate('abs(-3)')).toEqual(value(3));
    expect(evaluate('min(4, {a}, 9)', { a: -1 })).toEqual(value(-1));
    expect(evaluate('max(4)')).toEqual(value(4));
    expect(evaluate('round(2.5)')).toEqual(value(3));
    expect(evaluate('round(-2.5)')).toEqual(value(-3));
    expect(evaluate('round(1.005, 2)')).toEqual(value(1.01));
    expect(evaluate('round(1234.5678, -2)')).toEqual(value(1200));
    expect(evaluate('round({a}, 3)', { a: 1e-7 })).toEqual(value(0));
    expect(evaluate('round({a}, 2)', { a: -1e300 })).toEqual(value(-1e300));
    expect(evaluate('round({a}, 15)', { a: 123.456 })).toEqual(value(123.456));
    expect(evaluate('round(1, 2.5)')).toEqual({
      state: 'error',
      message: 'round digits must be a whole number from -15 to 15',
    });
  });

  it('normalises -0 to 0', () => {
    const sut = evaluate('-0 * 5');
    expect(sut).toEqual(value(0));
    expect(Object.is((sut as { value: number }).value, 0)).toBe(true);
    expect(Object.is((evaluate('round(-0.2)') as { value: number }).value, 0)).toBe(true);
  });

  it('is missing when a referenced value is missing: a missing value is never zero', () => {
    expect(evaluate('{a} + 1', {})).toEqual({ state: 'missing' });
    expect(evaluate('{a} * 0', { a: null })).toEqual({ state: 'missing' });
    expect(evaluate('{a} / 0', {})).toEqual({ state: 'missing' });
  });

  it('is an error when a referenced value is not a finite number, even if another is missing', () => {
    expect(evaluate('{a} + 1', { a: '12' })).toEqual({
      state: 'error',
      message: 'field {a} is not a number',
    });
    expect(evaluate('{m} + {a}', { a: true })).toEqual({
      state: 'error',
      message: 'field {a} is not a number',
    });
    expect(evaluate('{a} + 1', { a: Infinity })).toEqual({
      state: 'error',
      message: 'field {a} is not a number',
    });
    expect(evaluate('{a} + 1', { a: { $error: 'division by zero' } })).toEqual({
      state: 'error',
      message: 'division by zero',
    });
  });

  it('refuses division by zero and non-finite results', () => {
    expect(evaluate('1 / ({a} - 2)', { a: 2 })).toEqual({ state: 'error', message: 'division by zero' });
    expect(evaluate('{a} * {a}', { a: 1e200 })).toEqual({
      state: 'error',
      message: 'result is not a finite number',
    });
  });
});

describe('validateFormula', () => {
  const fields = [
    field('price', 'number'),
    field('qty', 'number'),
    field('name', 'text'),
    field('total', 'formula', '{price} * {qty}'),
    field('net', 'formula', '{total} * 0.8'),
    field('elsewhere', 'number', undefined, OTHER_TYPE),
  ];

  it('accepts references to number and formula fields of the type', () => {
    expect(() => validateFormula('{net} - {price}', fields)).not.toThrow();
    expect(() => validateFormula('{net} + 1', fields, 'gross')).not.toThrow();
  });

  it('refuses an unknown field, including one of another type', () => {
    expect(refusal(() => validateFormula('{nope} + 1', fields))).toMatchObject({
      customCode: 'formulaUnknownField',
      path: ['config', 'expression'],
    });
    expect(refusal(() => validateFormula('{elsewhere} + 1', fields, 'net')).customCode).toBe(
      'formulaUnknownField',
    );
  });

  it('refuses a field that is not numeric', () => {
    expect(refusal(() => validateFormula('{name} + 1', fields))).toMatchObject({
      customCode: 'formulaFieldNotNumeric',
      message: expect.stringContaining("'NAME', a text field"),
    });
  });

  it('refuses self-reference and cycles through other formulas', () => {
    expect(refusal(() => validateFormula('{total} + 1', fields, 'total')).customCode).toBe('formulaCycle');
    const sut = refusal(() => validateFormula('{net} + 1', fields, 'total'));
    expect(sut.customCode).toBe('formulaCycle');
    expect(sut.message).toContain('TOTAL → NET → TOTAL');
  });

  it('refuses parse errors with formulaInvalid', () => {
    expect(refusal(() => validateFormula('{price} +', fields)).customCode).toBe('formulaInvalid');
  });
});

describe('computeFormulas', () => {
  it('computes formulas in dependency order, whatever the field order', () => {
    const fields = [
      field('net', 'formula', '{total} * 0.5'),
      field('total', 'formula', '{price} * {qty}'),
      field('price', 'number'),
      field('qty', 'number'),
      field('label', 'text'),
    ];
    expect(computeFormulas(fields, { price: 10, qty: 3, label: 'x' })).toEqual({ net: 15, total: 30 });
  });

  it('stores undefined for missing and { $error } for errors, passing both down the chain', () => {
    const fields = [
      field('a', 'number'),
      field('b', 'number'),
      field('ratio', 'formula', '{a} / {b}'),
      field('pct', 'formula', '{ratio} * 100'),
    ];
    const missing = computeFormulas(fields, { b: 2 });
    expect(missing).toEqual({ ratio: undefined, pct: undefined });
    expect(Object.keys(missing)).toEqual(['ratio', 'pct']);
    expect(computeFormulas(fields, { a: 1, b: 0 })).toEqual({
      ratio: { $error: 'division by zero' },
      pct: { $error: 'division by zero' },
    });
  });

  it('stores an error, instead of failing, for broken stored formulas', () => {
    const fields = [
      field('text', 'text'),
      field('bad', 'formula', '1 +'),
      field('gone', 'formula', '{deleted} + 1'),
      field('notNumeric', 'formula', '{text} + 1'),
      field('loopA', 'formula', '{loopB} + 1'),
      field('loopB', 'formula', '{loopA} + 1'),
    ];
    expect(computeFormulas(fields, { text: 'x' })).toEqual({
      bad: { $error: 'The expression ends too early.' },
      gone: { $error: 'field {deleted} does not exist' },
      notNumeric: { $error: "field 'TEXT' is not numeric" },
      loopA: { $error: 'circular reference' },
      loopB: { $error: 'circular reference' },
    });
  });
});
