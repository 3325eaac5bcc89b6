import { bearerToken, OAuthTokenRefusedError } from './oauth-token-auth';

describe('bearerToken', () => {
  it('reads the token of an Authorization: Bearer header (RFC 6750 section 2.1)', () => {
    expect(bearerToken('Bearer abc-DEF_123.~+/=')).toBe('abc-DEF_123.~+/=');
    expect(bearerToken('bearer abc')).toBe('abc');
  });

  it('reads nothing from another scheme, an empty or a malformed header', () => {
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'Bearer ä']) {
      expect(bearerToken(header)).toBeUndefined();
    }
  });
});

describe('OAuthTokenRefusedError', () => {
  it('answers 401 for an invalid token and 403 for what a key would get in the same case', () => {
    expect(new OAuthTokenRefusedError('invalid_token').status).toBe(401);
    for (const reason of ['plan_required', 'member_inactive', 'insufficient_permissions'] as const) {
      expect(new OAuthTokenRefusedError(reason).status).toBe(403);
    }
  });
});
