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

/** The signature is a secret's proof: shown masked, like every custom header's value. */
const SIGNATURE_HEADER = 'x-webhook-signature';

/**
 * The request's headers as kept: the service's own in clear (Content-Type, User-Agent,
 * X-Service-Delivery-Id, Content-Length), the signature and every custom header's value masked
 * (spec: header values are shown only to roles with Edit; the log is read by more).
 */
export function maskRequestHeaders(
  headers: Record<string, string>,
  customHeaderNames: readonly string[],
): HeaderPair[] {
  const custom = new Set(customHeaderNames.map((name) => name.toLowerCase()));
  return Object.entries(headers).map(([name, value]) => {
    const folded = name.toLowerCase();
    return [name, folded === SIGNATURE_HEADER || custom.has(folded) ? MASKED_VALUE : value];
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
export type BodyWithheld = 'overDisplayLimit' | 'recordOwnerOnly' | 'erased' | null;

export const BODY_WITHHELD_MESSAGES: Record<Exclude<BodyWithheld, null>, string> = {
  overDisplayLimit: `The body is larger than ${ATTEMPT_BODY_DISPLAY_MAX_BYTES / 1024} KiB: only its SHA-256 and size are kept.`,
  recordOwnerOnly:
    'The body was rendered with the record owner’s access: only the webhook’s record owner and administrators see it. Its SHA-256 and size are shown.',
  erased:
    'The record was deleted permanently: the body sent was erased with its values. Its SHA-256 and size are kept.',
};

/**
 * Whether a viewer sees a kept request body. A record event's body holds what the webhook's record
 * owner could read, which may be more than the viewer can (spec: Event Details reads a record
 * payload with the viewer's access), so only that owner and administrators see it; the body of a
 * messaging event is shown as sent, like its payload.
 */
export function requestBodyWithheld(input: {
  kept: boolean;
  erased: boolean;
  recordEvent: boolean;
  viewerIsRecordOwner: boolean;
  viewerIsAdmin: boolean;
}): BodyWithheld {
  if (input.erased) return 'erased';
  if (!input.kept) return 'overDisplayLimit';
  if (input.recordEvent && !input.viewerIsRecordOwner && !input.viewerIsAdmin) return 'recordOwnerOnly';
  return null;
}
