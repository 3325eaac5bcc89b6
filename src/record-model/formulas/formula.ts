import { ValidationError } from '../../shared/app-error';

/**
 * The calculated-field language: numbers, `{fieldId}` references, `+ - * /`, unary minus,
 * parentheses and round/abs/min/max. Parsed by hand (never eval) so a stored expression can
 * only ever compute arithmetic.
 */

export const FORMULA_MAX_LENGTH = 1000;
export const FORMULA_MAX_DEPTH = 50;

export type FormulaFunction = 'round' | 'abs' | 'min' | 'max';

export type FormulaAst =
  | { type: 'number'; value: number }
  | { type: 'field'; fieldId: string }
  | { type: 'negate'; operand: FormulaAst }
  | { type: 'binary'; op: '+' | '-' | '*' | '/'; left: FormulaAst; right: FormulaAst }
  | { type: 'call'; name: FormulaFunction; args: FormulaAst[] };

export type FormulaResult =
  { state: 'value'; value: number } | { state: 'missing' } | { state: 'error'; message: string };

const ARITY: Record<FormulaFunction, { min: number; max: number }> = {
  round: { min: 1, max: 2 },
  abs: { min: 1, max: 1 },
  min: { min: 1, max: Infinity },
  max: { min: 1, max: Infinity },
};

const EXPRESSION_PATH = ['config', 'expression'];

export function invalid(message: string, customCode = 'formulaInvalid'): ValidationError {
  return ValidationError.of(message, customCode, EXPRESSION_PATH);
}

// ---- Parsing -------------------------------------------------------------------------------

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'field'; fieldId: string; at: number }
  | { kind: 'name'; name: string; at: number }
  | { kind: 'symbol'; symbol: string; at: number }
  | { kind: 'end'; at: number };

/** One token at a position: a number, a function name, `{fieldId}` or a symbol. */
const TOKEN = /(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z0-9_-]+)\}|([-+*/(),])/y;

/** Positions in messages are 1-based, as a person counts characters. */
function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  for (let index = 0; ;) {
    while (/\s/.test(expression[index] ?? '')) index += 1;
    const at = index + 1;
    if (index >= expression.length) return [...tokens, { kind: 'end', at }];
    TOKEN.lastIndex = index;
    const match = TOKEN.exec(expression);
    if (!match) {
      throw invalid(
        expression[index] === '{'
          ? `The field reference at position ${at} must be a field id followed by '}'.`
          : `Unexpected character '${expression[index]}' at position ${at}.`,
      );
    }
    const [text, number, name, fieldId, symbol] = match;
    if (number !== undefined) {
      const value = Number(number);
      if (!Number.isFinite(value)) throw invalid(`The number at position ${at} is too large.`);
      tokens.push({ kind: 'number', value, at });
    } else if (name !== undefined) tokens.push({ kind: 'name', name, at });
    else if (fieldId !== undefined) tokens.push({ kind: 'field', fieldId, at });
    else tokens.push({ kind: 'symbol', symbol: symbol!, at });
    index += text.length;
  }
}

function describeToken(token: Token): string {
  if (token.kind === 'end') return 'end of expression';
  const what =
    token.kind === 'number'
      ? `number ${token.value}`
      : token.kind === 'field'
        ? 'field reference'
        : `'${token.kind === 'name' ? token.name : token.symbol}'`;
  return `${what} at position ${token.at}`;
}

/** Recursive descent: expression := term (+|- term)*, term := unary (*|/ unary)*, unary := -unary | primary. */
class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): FormulaAst {
    if (this.peek().kind === 'end') throw invalid('The expression is empty.');
    const ast = this.expression();
    const next = this.peek();
    if (next.kind !== 'end') throw invalid(`Unexpected ${describeToken(next)}.`);
    return ast;
  }

  private expression(): FormulaAst {
    let left = this.term();
    for (let op = this.symbolOf('+', '-'); op; op = this.symbolOf('+', '-')) {
      left = { type: 'binary', op, left, right: this.term() };
    }
    return left;
  }

  private term(): FormulaAst {
    let left = this.unary();
    for (let op = this.symbolOf('*', '/'); op; op = this.symbolOf('*', '/')) {
      left = { type: 'binary', op, left, right: this.unary() };
    }
    return left;
  }

  private unary(): FormulaAst {
    if (!this.symbolOf('-')) return this.primary();
    return this.nested(() => ({ type: 'negate', operand: this.unary() }));
  }

  private primary(): FormulaAst {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { type: 'number', value: token.value };
      case 'field':
        return { type: 'field', fieldId: token.fieldId };
      case 'name':
        return this.call(token);
      case 'symbol':
        if (token.symbol === '(') {
          return this.nested(() => {
            const inner = this.expression();
            this.expect(')');
            return inner;
          });
        }
        throw invalid(`Unexpected ${describeToken(token)}.`);
      case 'end':
        throw invalid('The expression ends too early.');
    }
  }

  private call(token: Extract<Token, { kind: 'name' }>): FormulaAst {
    const name = token.name.toLowerCase();
    if (!Object.hasOwn(ARITY, name)) {
      throw invalid(
        `Unknown function '${token.name}' at position ${token.at}; use round, abs, min or max, and {fieldId} for fields.`,
      );
    }
    const fn = name as FormulaFunction;
    this.expect('(');
    return this.nested(() => {
      const args = [this.expression()];
      while (this.symbolOf(',')) args.push(this.expression());
      this.expect(')');
      const { min, max } = ARITY[fn];
      if (args.length < min || args.length > max) {
        const wanted = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
        throw invalid(`${fn}() at position ${token.at} takes ${wanted} argument(s), not ${args.length}.`);
      }
      return { type: 'call', name: fn, args };
    });
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > FORMULA_MAX_DEPTH) {
      throw invalid(`The expression is nested more than ${FORMULA_MAX_DEPTH} levels deep.`, 'formulaTooDeep');
    }
    const result = parse();
    this.depth -= 1;
    return result;
  }

  private expect(symbol: string): void {
    const token = this.next();
    if (token.kind !== 'symbol' || token.symbol !== symbol) {
      throw invalid(`Expected '${symbol}' but found ${describeToken(token)}.`);
    }
  }

  private symbolOf<S extends string>(...symbols: S[]): S | undefined {
    const token = this.peek();
    if (token.kind !== 'symbol' || !(symbols as string[]).includes(token.symbol)) return undefined;
    this.index += 1;
    return token.symbol as S;
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }
}

export function parseFormula(expression: string): FormulaAst {
  if (expression.length > FORMULA_MAX_LENGTH) {
    throw invalid(`The expression can have at most ${FORMULA_MAX_LENGTH} characters.`, 'formulaTooLong');
  }
  return new Parser(tokenize(expression)).parse();
}

/** The distinct referenced field ids, in order of first appearance. */
export function formulaFieldRefs(ast: FormulaAst): string[] {
  const refs = new Set<string>();
  const visit = (node: FormulaAst): void => {
    if (node.type === 'field') refs.add(node.fieldId);
    else if (node.type === 'negate') visit(node.operand);
    else if (node.type === 'binary') [node.left, node.right].forEach(visit);
    else if (node.type === 'call') node.args.forEach(visit);
  };
  visit(ast);
  return [...refs];
}

// ---- Evaluation ----------------------------------------------------------------------------

class FormulaFailure extends Error {}

/**
 * Inputs are checked before any arithmetic: an input that is not a number (or carries
 * `{ $error }`) makes the result an error, naming the first such input; otherwise any missing
 * input makes the whole result missing (a missing value is never zero). Only then is the
 * arithmetic done, where division by zero and overflow are errors.
 */
export function evaluateFormula(ast: FormulaAst, valueOf: (fieldId: string) => unknown): FormulaResult {
  const inputs = new Map<string, number>();
  let missing = false;
  for (const fieldId of formulaFieldRefs(ast)) {
    const value = valueOf(fieldId);
    if (value === undefined || value === null) missing = true;
    else if (typeof value === 'number' && Number.isFinite(value)) inputs.set(fieldId, value);
    else return { state: 'error', message: inputErrorMessage(fieldId, value) };
  }
  if (missing) return { state: 'missing' };
  try {
    const value = compute(ast, inputs);
    return { state: 'value', value: value === 0 ? 0 : value }; // normalises -0
  } catch (error) {
    if (error instanceof FormulaFailure) return { state: 'error', message: error.message };
    throw error;
  }
}

/** An upstream formula's error travels on unchanged, so the root cause stays visible. */
function inputErrorMessage(fieldId: string, value: unknown): string {
  const upstream = (value as { $error?: unknown }).$error;
  return typeof upstream === 'string' ? upstream : `field {${fieldId}} is not a number`;
}

function compute(node: FormulaAst, inputs: Map<string, number>): number {
  switch (node.type) {
    case 'number':
      return node.value;
    case 'field':
      return inputs.get(node.fieldId)!;
    case 'negate':
      return -compute(node.operand, inputs);
    case 'binary': {
      const left = compute(node.left, inputs);
      const right = compute(node.right, inputs);
      if (node.op === '/' && right === 0) throw new FormulaFailure('division by zero');
      return finite(OPERATIONS[node.op](left, right));
    }
    case 'call':
      return finite(FUNCTIONS[node.name](node.args.map((arg) => compute(arg, inputs))));
  }
}

const OPERATIONS: Record<'+' | '-' | '*' | '/', (left: number, right: number) => number> = {
  '+': (left, right) => left + right,
  '-': (left, right) => left - right,
  '*': (left, right) => left * right,
  '/': (left, right) => left / right,
};

const FUNCTIONS: Record<FormulaFunction, (args: number[]) => number> = {
  abs: ([value]) => Math.abs(value!),
  min: (args) => Math.min(...args),
  max: (args) => Math.max(...args),
  round: ([value, digits]) => roundHalfAwayFromZero(value!, digits ?? 0),
};

const ROUND_MAX_DIGITS = 15;

/** Spreadsheet rounding (2.5 → 3, -2.5 → -3), shifting by decimal exponent so 1.005 → 1.01. */
function roundHalfAwayFromZero(value: number, digits: number): number {
  if (!Number.isInteger(digits) || Math.abs(digits) > ROUND_MAX_DIGITS) {
    throw new FormulaFailure(
      `round digits must be a whole number from -${ROUND_MAX_DIGITS} to ${ROUND_MAX_DIGITS}`,
    );
  }
  const shift = (n: number, by: number): number => {
    const [mantissa, exponent = '0'] = String(n).split('e');
    return Number(`${mantissa}e${Number(exponent) + by}`);
  };
  const scaled = shift(Math.abs(value), digits);
  if (scaled >= Number.MAX_SAFE_INTEGER) return value; // no fraction left to round at that scale
  return Math.sign(value) * shift(Math.round(scaled), -digits);
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new FormulaFailure('result is not a finite number');
  return value;
}

// ---- Fields --------------------------------------------------------------------------------
