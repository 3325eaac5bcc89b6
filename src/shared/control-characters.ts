// Control characters in request text (issue 24): the one rule every REST query, JSON body and MCP
// tool argument is held to (src/http/validate.ts runs it on what the request schema parsed).
// PostgreSQL refuses NUL in text and JSON, and no field of the service holds the other controls.
import type { ErrorIssue } from './app-error';

type Path = (string | number)[];

/** NUL, the C0 controls but tab, line feed and carriage return, and DEL: refused in any text. */
// eslint-disable-next-line no-control-regex -- the point: these are the characters refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Also refused in one-line text: tab and line breaks. */
// eslint-disable-next-line no-control-regex -- as above
const ONE_LINE_CONTROL = /[\u0000-\u001f\u007f]/;

/** Fields people write over several lines: a webhook's note, its JSON body template, a formula. */
const MULTI_LINE_FIELDS: ReadonlySet<string> = new Set(['description', 'bodyTemplate', 'expression']);

/**
 * Whether the text at `path` may run over several lines: the fields above, a record's values (a
 * text or rich text value may hold a paragraph) and a filter's value (it is compared with them).
 * Everything else is one line: names, search terms, URLs, events, secrets, header names and
 * values, emails, ids, dates, cursors, and every object key.
 */
export function isMultiLinePath(path: Path): boolean {
  const last = path.at(-1);
  if (typeof last === 'string' && MULTI_LINE_FIELDS.has(last)) return true;
  if (path[0] === 'values') return true;
  const filterAt = path.lastIndexOf('filters');
  return filterAt >= 0 && typeof path[filterAt + 1] === 'number' && path[filterAt + 2] === 'value';
}

const issueAt = (path: Path, multiLine: boolean): ErrorIssue => ({
  code: 'custom',
  path,
  message: multiLine
    ? 'Text cannot contain control characters (NUL and the like); tabs and line breaks are fine here.'
    : 'This is one line of text: it cannot contain tabs, line breaks or other control characters.',
  customCode: 'controlCharacter',
});

/**
 * Every string (and object key) of a parsed request that holds a control character its field
 * does not take, with the field's path. Only plain objects and arrays are looked into. The
 * top-level fields in `ownRule` are left alone: their own rule refuses control characters with
 * its own customCode (a webhook's URL and headers, passwords).
 */
export function controlCharacterIssues(
  value: unknown,
  ownRule: ReadonlySet<string> = new Set(),
): ErrorIssue[] {
  if (!isPlainObject(value)) return issuesIn(value, []);
  return issuesIn(Object.fromEntries(Object.entries(value).filter(([key]) => !ownRule.has(key))), []);
}

function issuesIn(value: unknown, path: Path): ErrorIssue[] {
  if (typeof value === 'string') {
    const multiLine = isMultiLinePath(path);
    return (multiLine ? CONTROL : ONE_LINE_CONTROL).test(value) ? [issueAt(path, multiLine)] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => issuesIn(item, [...path, index]));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const at = [...path, key];
    return ONE_LINE_CONTROL.test(key) ? [issueAt(at, false)] : issuesIn(item, at);
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
