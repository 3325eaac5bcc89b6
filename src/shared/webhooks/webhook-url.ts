import { ValidationError } from '../app-error';

/**
 * Our limit, not the spec's (it is silent): 2,048 characters is what browsers, CDNs and common
 * HTTP servers reliably accept as a request target. Measured on the saved (normalized) form,
 * because that is what is stored and sent; punycode and percent-encoding can lengthen the input.
 */
export const WEBHOOK_URL_MAX = 2048;

/** docs/api.md#url-and-transport: "HTTP or HTTPS". */
const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/** A leading `scheme:` (RFC 3986 scheme syntax). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/**
 * `example.com:8080` or `localhost:3000/hook` also match SCHEME; a colon followed by a port
 * (1 to 5 digits, then the end, a path, a query or a fragment) means host and port, no scheme.
 */
const HOST_AND_PORT = /^[a-z][a-z0-9+.-]*:\d{1,5}(?:[/?#]|$)/i;

/** C0 controls and DEL: WHATWG parsing silently drops tabs and line breaks; we refuse them instead. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** One DNS label after IDNA (WHATWG already lowercased and punycoded it); `_` is common on intranets. */
const HOST_LABEL = /^[a-z0-9_-]{1,63}$/;
const HOSTNAME_MAX = 253;

const refuse = (message: string, customCode: string) => ValidationError.of(message, customCode, ['url']);

/**
 * The URL as it is saved (docs/api.md#url-and-transport): trimmed, `https://` in front when no scheme is
 * given, http or https only, a valid host, no credentials, in ASCII form (punycode host,
 * percent-encoded path and query: WHATWG `URL.href`). `href` also lowercases scheme and host,
 * drops a default port and adds `/` as the path of a bare origin. Throws a ValidationError.
 */
export function normalizeWebhookUrl(input: string): string {
  const text = input.trim();
  if (CONTROL_CHARACTER.test(text)) {
    throw refuse(
      'The URL cannot contain tabs, line breaks or other control characters.',
      'webhookUrlInvalid',
    );
  }
  const hasScheme = SCHEME.test(text) && !HOST_AND_PORT.test(text);
  const candidate = hasScheme ? text : `https://${text}`;
  const scheme = SCHEME.exec(candidate)?.[0].toLowerCase() ?? '';
  if (!ALLOWED_PROTOCOLS.has(scheme)) {
    throw refuse('Only http:// and https:// URLs are accepted.', 'webhookUrlSchemeNotAllowed');
  }

  const url = parseUrl(candidate);
  if (!url || !isValidHostname(url.hostname)) {
    throw refuse(
      'Enter a URL with a valid host name, for example https://example.com/hook.',
      'webhookUrlHostInvalid',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse('The URL cannot contain a username or password.', 'webhookUrlCredentialsNotAllowed');
  }
  if (url.href.length > WEBHOOK_URL_MAX) {
    throw refuse(`The URL can have at most ${WEBHOOK_URL_MAX} characters.`, 'webhookUrlTooLong');
  }
  return url.href;
}

/**
 * docs/api.md#url-and-transport: "localhost, 127.0.0.1 or ::1". Takes a WHATWG `hostname`,
 * which writes IPv6 in brackets (`[::1]`); the bare form is accepted too. Exact names only:
 * other loopback addresses (127.0.0.2, localhost.) are not on the spec's list.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** WHATWG accepts hosts no DNS name can have (`a..b`, `exa!mple.com`, `.`); refuse those too. */
function isValidHostname(hostname: string): boolean {
  if (hostname.startsWith('[')) return true; // an IPv6 literal WHATWG already validated
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname; // a fully qualified name
  return (
    name.length > 0 && name.length <= HOSTNAME_MAX && name.split('.').every((label) => HOST_LABEL.test(label))
  );
}
