// What Event Details keeps of each request and answer of a delivery attempt: the request headers as
// sent with every secret masked, the body or its hash and size, and the receiver's headers, capped
// and with credentials masked. The receiver's body is never kept (spec). Pure rules; the web app
// imports the limits and the types.

/** What a masked value reads as, here and in the dialog. */
export const MASKED_VALUE = '********';

/** Bodies over this many bytes are kept as their SHA-256 and size only. */
export const ATTEMPT_BODY_DISPLAY_MAX_BYTES = 65_536;
/** The receiver's headers kept per answer, at most (the rest are counted, not kept). */
export const RESPONSE_HEADERS_MAX_COUNT = 50;
/** …and at most this many characters of names and values in all. */
export const RESPONSE_HEADERS_MAX_CHARS = 8192;

export type HeaderPair = [name: string, value: string];

/** The signatures are a secret's proof: shown masked, like every custom header's value. */
const SIGNATURE_HEADERS: ReadonlySet<string> = new Set(['x-webhook-signature', 'webhook-signature']);

/**
 * The request's headers as kept: the service's own in clear (Content-Type, User-Agent,
 * X-Service-Delivery-Id, X-Webhook-Event, webhook-id, webhook-timestamp, Content-Length), the
 * signatures (X-Webhook-Signature, webhook-signature) and every custom header's value masked
 * (docs/api.md#custom-headers: header values are shown only to roles with Edit; the log is read
 * by more).
 */
export function maskRequestHeaders(
  headers: Record<string, string>,
  customHeaderNames: readonly string[],
): HeaderPair[] {
  const custom = new Set(customHeaderNames.map((name) => name.toLowerCase()));
  return Object.entries(headers).map(([name, value]) => {
    const folded = name.toLowerCase();
    return [name, SIGNATURE_HEADERS.has(folded) || custom.has(folded) ? MASKED_VALUE : value];
  });
}

/** Receiver headers that carry credentials or session state: kept by name, value masked. */
const CREDENTIAL_HEADER =
  /^(set-cookie2?|cookie|authorization|proxy-authorization|www-authenticate|proxy-authenticate)$/;
const CREDENTIAL_WORD = /token|secret|session|password|passwd|api[-_]?key|auth|signature|credential/;

export function isCredentialHeader(name: string): boolean {
  const folded = name.toLowerCase();
  return CREDENTIAL_HEADER.test(folded) || CREDENTIAL_WORD.test(folded);
}

/** The receiver's headers as kept: in order, credentials masked, capped in count and size. */
export function keptResponseHeaders(pairs: readonly HeaderPair[]): {
  headers: HeaderPair[];
  omitted: number;
} {
  const headers: HeaderPair[] = [];
  let chars = 0;
  for (const [name, raw] of pairs) {
    const value = isCredentialHeader(name) ? MASKED_VALUE : raw;
    if (
      headers.length >= RESPONSE_HEADERS_MAX_COUNT ||
      chars + name.length + value.length > RESPONSE_HEADERS_MAX_CHARS
    )
      break;
    headers.push([name, value]);
    chars += name.length + value.length;
  }
  return { headers, omitted: pairs.length - headers.length };
}

/** Why a request body is not shown; null when it is. */
export type BodyWithheld = 'overDisplayLimit' | 'viewerAccess' | 'erased' | null;

export const BODY_WITHHELD_MESSAGES: Record<Exclude<BodyWithheld, null>, string> = {
  overDisplayLimit: `The body is larger than ${ATTEMPT_BODY_DISPLAY_MAX_BYTES / 1024} KiB: only its SHA-256 and size are kept.`,
  viewerAccess:
    'The body was rendered with the record owner’s access and holds values your role cannot read now: it is not shown, nor its SHA-256 or size.',
  erased: 'The record was deleted permanently: the body sent was erased with its values.',
};

/** Who reads an attempt's kept request. */
export interface BodyViewer {
  /** Administrators read every record. */
  isAdmin: boolean;
  /**
   * The viewer's current access hides nothing of the event's data (always so for messaging and
   * test events, shown as sent). A body holds nothing beyond that data, its envelope and the
   * webhook's template, so such a viewer may see everything it could hold.
   */
  seesWholeEvent: boolean;
}

/**
 * Whether a viewer sees a kept request body. A record event's body was rendered with the webhook's
 * record owner's access at the time, while Event Details reads a record payload with the viewer's
 * access now (spec), so it is shown only to administrators and to viewers whose access hides
 * nothing of the event — not to the owner as such, whose access may have narrowed since.
 */
export function requestBodyWithheld(input: BodyViewer & { kept: boolean; erased: boolean }): BodyWithheld {
  if (!input.isAdmin && !input.seesWholeEvent) return 'viewerAccess';
  if (input.erased) return 'erased';
  if (!input.kept) return 'overDisplayLimit';
  return null;
}

/**
 * Whether the body's SHA-256 and size (and the request's Content-Length) may be shown. Not to a
 * viewer from whom the body is withheld by access: knowing the rest of the body (the payload they
 * may read), they could hash guesses of a hidden value until one matches, and a size tells a
 * value's length. After an erasure the scrubbed event no longer says what the body held, so only
 * administrators still see them.
 */
export function digestShown(input: BodyViewer & { erased: boolean }): boolean {
  return input.isAdmin || (input.seesWholeEvent && !input.erased);
}
