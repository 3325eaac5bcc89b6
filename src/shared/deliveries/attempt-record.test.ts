import {
  ATTEMPT_BODY_DISPLAY_MAX_BYTES,
  isCredentialHeader,
  keptResponseHeaders,
  MASKED_VALUE,
  maskRequestHeaders,
  digestShown,
  requestBodyWithheld,
  RESPONSE_HEADERS_MAX_CHARS,
  RESPONSE_HEADERS_MAX_COUNT,
} from './attempt-record';

describe('maskRequestHeaders', () => {
  it('shows the service’s own headers and masks the signature and every custom header', () => {
    expect(
      maskRequestHeaders(
        {
          'Content-Type': 'application/json',
          'User-Agent': 'crm-webhooks/1.0 (+webhooks)',
          'X-Service-Delivery-Id': 'd-1',
          'X-Webhook-Signature': 'abc123',
          'X-Team': 'growth',
          Authorization: 'Bearer s3cret',
        },
        ['x-team', 'AUTHORIZATION'],
      ),
    ).toEqual([
      ['Content-Type', 'application/json'],
      ['User-Agent', 'crm-webhooks/1.0 (+webhooks)'],
      ['X-Service-Delivery-Id', 'd-1'],
      ['X-Webhook-Signature', MASKED_VALUE],
      ['X-Team', MASKED_VALUE],
      ['Authorization', MASKED_VALUE],
    ]);
  });

  it('shows the Standard Webhooks id and timestamp and masks its signature', () => {
    expect(
      maskRequestHeaders(
        {
          'X-Webhook-Event': 'record.created',
          'webhook-id': 'e-1',
          'webhook-timestamp': '1764680400',
          'webhook-signature': 'v1,abc= v1,def=',
        },
        [],
      ),
    ).toEqual([
      ['X-Webhook-Event', 'record.created'],
      ['webhook-id', 'e-1'],
      ['webhook-timestamp', '1764680400'],
      ['webhook-signature', MASKED_VALUE],
    ]);
  });

  it('masks a custom header that shares a name with one the service sets (User-Agent is not reserved)', () => {
    expect(maskRequestHeaders({ 'User-Agent': 'partner-token-42' }, ['user-agent'])).toEqual([
      ['User-Agent', MASKED_VALUE],
    ]);
  });
});

describe('keptResponseHeaders', () => {
  it('masks credential-bearing headers and keeps the rest in order', () => {
    expect(
      keptResponseHeaders([
        ['Content-Type', 'text/plain'],
        ['Set-Cookie', 'session=abc'],
        ['Set-Cookie', 'other=def'],
        ['X-Request-Id', 'r-1'],
        ['X-Auth-Token', 't'],
      ]),
    ).toEqual({
      headers: [
        ['Content-Type', 'text/plain'],
        ['Set-Cookie', MASKED_VALUE],
        ['Set-Cookie', MASKED_VALUE],
        ['X-Request-Id', 'r-1'],
        ['X-Auth-Token', MASKED_VALUE],
      ],
      omitted: 0,
    });
    for (const name of [
      'www-authenticate',
      'Proxy-Authorization',
      'x-api-key',
      'X-Session-Id',
      'x-csrf-token',
    ])
      expect(isCredentialHeader(name)).toBe(true);
    for (const name of ['content-type', 'date', 'server', 'x-request-id', 'retry-after'])
      expect(isCredentialHeader(name)).toBe(false);
  });

  it('caps the count and the characters, and counts what it left out', () => {
    const many = Array.from({ length: RESPONSE_HEADERS_MAX_COUNT + 7 }, (_, i): [string, string] => [
      `x-h${i}`,
      'v',
    ]);
    expect(keptResponseHeaders(many)).toMatchObject({ omitted: 7 });
    expect(keptResponseHeaders(many).headers).toHaveLength(RESPONSE_HEADERS_MAX_COUNT);
    const big: [string, string][] = [
      ['x-a', 'a'.repeat(RESPONSE_HEADERS_MAX_CHARS - 10)],
      ['x-b', 'b'.repeat(20)],
      ['x-c', 'c'],
    ];
    expect(keptResponseHeaders(big)).toEqual({ headers: [big[0]], omitted: 2 });
  });
});

describe('requestBodyWithheld and digestShown', () => {
  const reader = { isAdmin: false, seesWholeEvent: true };
  const hidden = { isAdmin: false, seesWholeEvent: false };
  const admin = { isAdmin: true, seesWholeEvent: false };
  const stored = { kept: true, erased: false };

  it('shows the body to administrators and to viewers whose access hides nothing of the event', () => {
    expect(requestBodyWithheld({ ...reader, ...stored })).toBeNull();
    expect(requestBodyWithheld({ ...admin, ...stored })).toBeNull();
    expect(requestBodyWithheld({ ...hidden, ...stored })).toBe('viewerAccess');
  });

  it('shows no hash or size to whom the body is withheld by access (no guessing oracle)', () => {
    expect(digestShown({ ...hidden, erased: false })).toBe(false);
    expect(requestBodyWithheld({ ...hidden, kept: false, erased: true })).toBe('viewerAccess');
    expect(digestShown({ ...reader, erased: false })).toBe(true);
  });

  it('withholds a body over the display limit or erased with its record, from everyone', () => {
    expect(ATTEMPT_BODY_DISPLAY_MAX_BYTES).toBe(65_536);
    expect(requestBodyWithheld({ ...admin, kept: false, erased: false })).toBe('overDisplayLimit');
    expect(requestBodyWithheld({ ...admin, kept: false, erased: true })).toBe('erased');
    expect(requestBodyWithheld({ ...reader, kept: false, erased: true })).toBe('erased');
    // After an erasure only administrators keep the hash and size: the scrubbed event no longer
    // says what the body held.
    expect(digestShown({ ...admin, erased: true })).toBe(true);
    expect(digestShown({ ...reader, erased: true })).toBe(false);
  });
});
