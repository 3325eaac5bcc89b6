// Custom header rules (docs/api.md#custom-headers). The web app bundles this file for its
// dialog: it must import nothing from Node.
import { ValidationError, type ErrorIssue } from '../app-error';

/** docs/api.md#custom-headers: "Reserved names, rejected: …". Compared case-insensitively. */
export const RESERVED_HEADER_NAMES = [
  'Connection',
  'Content-Length',
  'Content-Type',
  'Host',
  'Transfer-Encoding',
  'X-Webhook-Signature',
  'X-Service-Delivery-Id',
] as const;

/** docs/api.md#limits: "Custom headers: up to 20; …". */
export const WEBHOOK_HEADERS_MAX_COUNT = 20;
/** docs/api.md#limits: "Custom headers: …; name up to 128 characters; …". */
export const WEBHOOK_HEADER_NAME_MAX = 128;
/** docs/api.md#limits: "Custom headers: …; value up to 2,048; …". */
export const WEBHOOK_HEADER_VALUE_MAX = 2048;
/** docs/api.md#limits: "Custom headers: …; total 8,192 characters" (sum of name and value lengths). */
export const WEBHOOK_HEADERS_TOTAL_MAX = 8192;

const reservedNames: ReadonlySet<string> = new Set(RESERVED_HEADER_NAMES.map((name) => name.toLowerCase()));

/** docs/api.md#custom-headers: "valid HTTP tokens" (RFC 9110 §5.6.2 `token`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * docs/api.md#custom-headers: "Latin-1 text without line breaks". Allowed: HTAB and the
 * printable ISO-8859-1 characters (U+0020–U+007E, U+00A0–U+00FF). Refused: CR, LF, NUL and every
 * other C0 control, DEL, the C1 controls (U+0080–U+009F, which Latin-1 leaves undefined) and
 * anything above U+00FF.
 */
const VALUE_TEXT = /^[\t\u0020-\u007e\u00a0-\u00ff]*$/;

/**
 * Refuses headers that break a rule, reporting every problem at once: per header at
 * `['headers', name]`, count and total size at `['headers']`. Throws a ValidationError.
 */
export function validateWebhookHeaders(headers: Record<string, string>): void {
  const issues: ErrorIssue[] = [];
  const issue = (path: string[], customCode: string, message: string) =>
    issues.push({ code: 'invalid', path: ['headers', ...path], message, customCode });

  const entries = Object.entries(headers);
  const seen = new Set<string>();
  let total = 0;
  for (const [name, value] of entries) {
    total += name.length + value.length;
    const folded = name.toLowerCase();
    if (reservedNames.has(folded)) {
      issue(
        [name],
        'webhookHeaderNameReserved',
        `${name} is set by the service and cannot be a custom header.`,
      );
    }
    if (!TOKEN.test(name)) {
      issue(
        [name],
        'webhookHeaderNameInvalid',
        "A header name can use only letters, digits and !#$%&'*+-.^_`|~.",
      );
    }
    if (name.length > WEBHOOK_HEADER_NAME_MAX) {
      issue(
        [name],
        'webhookHeaderNameTooLong',
        `A header name can have at most ${WEBHOOK_HEADER_NAME_MAX} characters.`,
      );
    }
    if (seen.has(folded)) {
      issue([name], 'webhookHeaderNameDuplicate', `${name} is given twice (header names ignore case).`);
    }
    seen.add(folded);
    if (!VALUE_TEXT.test(value)) {
      issue([name], 'webhookHeaderValueInvalid', 'A header value must be Latin-1 text without line breaks.');
    }
    if (value.length > WEBHOOK_HEADER_VALUE_MAX) {
      issue(
        [name],
        'webhookHeaderValueTooLong',
        `A header value can have at most ${WEBHOOK_HEADER_VALUE_MAX} characters.`,
      );
    }
  }
  if (entries.length > WEBHOOK_HEADERS_MAX_COUNT) {
    issue(
      [],
      'webhookHeadersTooMany',
      `A webhook can have at most ${WEBHOOK_HEADERS_MAX_COUNT} custom headers.`,
    );
  }
  if (total > WEBHOOK_HEADERS_TOTAL_MAX) {
    issue(
      [],
      'webhookHeadersTooLarge',
      `Custom header names and values can have at most ${WEBHOOK_HEADERS_TOTAL_MAX} characters in all.`,
    );
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * Reads the dialog's headers field (docs/api.md#custom-headers): one `Name: value` per line,
 * split at the first colon, name and value trimmed; a line without a colon is ignored. A field
 * holding only whitespace returns `null`, meaning "remove all headers". When a name repeats
 * exactly, the last line wins; names differing in case are kept so validation reports them.
 * A line with an empty name (`: value`) is kept too, so validation refuses it visibly.
 */
export function parseHeaderLines(text: string): Record<string, string> | null {
  if (text.trim() === '') return null;
  const headers = new Map<string, string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  // fromEntries defines own properties, so a name like `__proto__` stays an ordinary header.
  return Object.fromEntries(headers);
}
