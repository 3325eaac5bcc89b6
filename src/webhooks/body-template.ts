// Body template rules (docs/api.md#body-template). Placeholders are found by a small
// string-aware scanner over the JSON text, so "inside a JSON string" means what a JSON parser
// means. Rendering only ever replaces placeholders inside strings with escaped text: whatever a
// record holds, the document keeps the template's structure.
import { ValidationError, type ErrorIssue } from '../shared/app-error';
import { BODY_TEMPLATE_MAX, RENDERED_BODY_MAX } from '../shared/limits';
/** docs/api.md#body-template: the envelope fields a placeholder can name; `data` also takes a path. */
export const PLACEHOLDER_ROOTS = ['event', 'id', 'timestamp', 'companyId', 'actorId', 'data'] as const;

/** What a template is rendered against: the standard envelope (docs/events.md#record-events). */
export interface TemplateEnvelope {
  event: string;
  id: string;
  timestamp: string;
  companyId: string;
  actorId: string | null;
  data: unknown;
}

export type RenderResult = { ok: true; body: string } | { ok: false; reason: string };

/** `{{data.a.b}}`: each segment a key or an array index; `{{data..x}}` and `{{data.}}` are not paths. */
const DATA_PATH = /^data(?:\.[A-Za-z0-9_-]+)+$/;
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

interface Placeholder {
  start: number;
  end: number;
  /** As written, braces included, for messages. */
  raw: string;
  /** The name between the braces, trimmed: `{{ data.x }}` is `{{data.x}}`. */
  path: string;
  inString: boolean;
}

/**
 * Refuses a template that breaks a save-time rule, reporting every problem found at once at
 * `['bodyTemplate']`. Throws a ValidationError.
 */
export function validateBodyTemplate(template: string): void {
  const issue = (customCode: string, message: string): ErrorIssue => ({
    code: 'invalid',
    path: ['bodyTemplate'],
    message,
    customCode,
  });
  if (template.length > BODY_TEMPLATE_MAX) {
    throw new ValidationError([
      issue('bodyTemplateTooLong', `The body template can have at most ${BODY_TEMPLATE_MAX} characters.`),
    ]);
  }

  const placeholders = scanPlaceholders(template);
  const issues = new Map<string, ErrorIssue>(); // keyed by code and placeholder: one issue each
  for (const placeholder of placeholders) {
    if (!isKnownPath(placeholder.path)) {
      issues.set(
        `unknown ${placeholder.raw}`,
        issue('bodyTemplatePlaceholderUnknown', unknownMessage(placeholder)),
      );
    }
    if (!placeholder.inString) {
      issues.set(
        `outside ${placeholder.raw}`,
        issue('bodyTemplatePlaceholderOutsideString', outsideMessage(placeholder)),
      );
    }
  }

  // Inside strings a placeholder is plain text, so the template itself must be JSON once the
  // placeholders outside strings (already reported) are blanked to `null`, padded to keep
  // the parser's error positions true to the template.
  const blanked = fill(template, placeholders, (p) => (p.inString ? p.raw : 'null'.padEnd(p.raw.length)));
  const shape = jsonShape(blanked);
  if (shape.kind === 'invalid') {
    issues.set(
      'json',
      issue('bodyTemplateInvalidJson', `The body template is not valid JSON: ${shape.message}`),
    );
  } else if (issues.size === 0) {
    // The template can render: render it for real, through the delivery's own code.
    const rendered = renderWith(template, SAMPLE_ENVELOPE);
    if (!rendered.ok) issues.set('render', issue('bodyTemplateNotObject', rendered.reason));
  } else if (shape.kind === 'notObject') {
    issues.set('shape', issue('bodyTemplateNotObject', notObjectMessage(shape.found)));
  }
  if (issues.size > 0) throw new ValidationError([...issues.values()]);
}

/**
 * The body a delivery sends (docs/api.md#body-template): each placeholder replaced by the
 * value at its path (a string as is, a number or boolean as its text, null or a missing path as
 * an empty string, an object or array as its JSON text), escaped for its place in the JSON
 * string. Values are inserted once, never re-scanned: a `{{data}}` inside a record stays text.
 * Fails, never throws, when the result is not a JSON object or exceeds RENDERED_BODY_MAX.
 */
export function renderBodyTemplate(template: string, envelope: TemplateEnvelope): RenderResult {
  try {
    return renderWith(template, envelope);
  } catch (error) {
    // A value JSON cannot represent (a cycle, a BigInt inside an object) in hand-built data.
    return { ok: false, reason: `The body template could not be rendered: ${messageOf(error)}` };
  }
}

/**
 * Sample values for the save-time render. They do not change the structure (escaping sees to
 * that); they are short, so a template within BODY_TEMPLATE_MAX renders far below
 * RENDERED_BODY_MAX (at most 36 characters per placeholder of at least 6).
 */
const SAMPLE_ENVELOPE: TemplateEnvelope = {
  event: 'record.updated',
  id: '00000000-0000-4000-8000-000000000001',
  timestamp: '2025-01-01T00:00:00.000Z',
  companyId: '00000000-0000-4000-8000-000000000002',
  actorId: null,
  data: {},
};

function renderWith(template: string, envelope: TemplateEnvelope): RenderResult {
  const placeholders = scanPlaceholders(template);
  for (const placeholder of placeholders) {
    if (!isKnownPath(placeholder.path)) return { ok: false, reason: unknownMessage(placeholder) };
    if (!placeholder.inString) return { ok: false, reason: outsideMessage(placeholder) };
  }
  const body = fill(template, placeholders, (p) => escapeForJsonString(textOf(valueAt(envelope, p.path))));
  if (body.length > RENDERED_BODY_MAX) {
    return {
      ok: false,
      reason: `The rendered body has ${body.length} characters, more than the limit of ${RENDERED_BODY_MAX}.`,
    };
  }
  const shape = jsonShape(body);
  if (shape.kind === 'invalid')
    return { ok: false, reason: `The rendered body is not valid JSON: ${shape.message}` };
  if (shape.kind === 'notObject') return { ok: false, reason: notObjectMessage(shape.found) };
  return { ok: true, body };
}

/**
 * Finds every `{{…}}` and whether it sits inside a JSON string, in one pass that skips escaped
 * characters in strings. A `{{` without its `}}` before the string ends is plain text. Outside
 * strings `{{` is never valid JSON, so one found there is a placeholder in a value position.
 */
function scanPlaceholders(template: string): Placeholder[] {
  const found: Placeholder[] = [];
  let inString = false;
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (inString && char === '\\') {
      i++; // the escaped character cannot open, close or end anything
    } else if (char === '"') {
      inString = !inString;
    } else if (char === '{' && template[i + 1] === '{') {
      const close = closingBraces(template, i + 2);
      if (close.at === -1) {
        // Nothing closes before the string (or text) ends: resume at the stop, which keeps the
        // scan linear in the template's length.
        i = close.stop - 1;
        continue;
      }
      const raw = template.slice(i, close.at + 2);
      found.push({ start: i, end: close.at + 2, raw, path: raw.slice(2, -2).trim(), inString });
      i = close.at + 1;
    }
  }
  return found;
}

/** The index of the `}}` ending a placeholder, or -1 when a quote, a backslash or the end comes first. */
function closingBraces(template: string, from: number): { at: number; stop: number } {
  for (let i = from; i < template.length; i++) {
    const char = template[i];
    if (char === '"' || char === '\\') return { at: -1, stop: i };
    if (char === '}' && template[i + 1] === '}') return { at: i, stop: i };
  }
  return { at: -1, stop: template.length };
}

function isKnownPath(path: string): boolean {
  return (PLACEHOLDER_ROOTS as readonly string[]).includes(path) || DATA_PATH.test(path);
}

/** The text with each placeholder's span replaced. Replacements are never scanned again. */
function fill(template: string, placeholders: Placeholder[], replace: (p: Placeholder) => string): string {
  const parts: string[] = [];
  let last = 0;
  for (const placeholder of placeholders) {
    parts.push(template.slice(last, placeholder.start), replace(placeholder));
    last = placeholder.end;
  }
  parts.push(template.slice(last));
  return parts.join('');
}

/** The value at a placeholder path: own properties only (no `constructor`), array indexes only. */
function valueAt(envelope: TemplateEnvelope, path: string): unknown {
  let value: unknown = envelope;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    if (Array.isArray(value) && !ARRAY_INDEX.test(key)) return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** docs/api.md#body-template: an object as its JSON text, a missing value as empty text. */
function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? '' : JSON.stringify(value);
    default:
      return ''; // undefined (a missing path); functions and symbols are not JSON
  }
}

/**
 * Text as the inside of a JSON string literal: JSON.stringify escapes quotes, backslashes,
 * control characters and lone surrogates; U+2028 and U+2029 are escaped too because they end
 * a line in pre-ES2019 JavaScript, where some receivers evaluate JSON.
 */
function escapeForJsonString(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

type JsonShape =
  { kind: 'object' } | { kind: 'notObject'; found: string } | { kind: 'invalid'; message: string };

function jsonShape(text: string): JsonShape {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', message: messageOf(error) };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { kind: 'object' };
  return {
    kind: 'notObject',
    found: Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`,
  };
}

const unknownMessage = (p: Placeholder) =>
  `Unknown placeholder ${p.raw}: use {{event}}, {{id}}, {{timestamp}}, {{companyId}}, {{actorId}}, {{data}} or a path under data such as {{data.record.ref.recordId}}.`;
const outsideMessage = (p: Placeholder) =>
  `The placeholder ${p.raw} must sit inside a JSON string, for example "${p.raw}".`;
const notObjectMessage = (found: string) => `The body template must render to a JSON object, not ${found}.`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
