import {
  MAX_CLIENT_NAME_LENGTH,
  MAX_REDIRECT_URIS,
  clientNameRefusal,
  redirectUrisRefusal,
} from './client-metadata-rules';

describe('what a registering client may say about itself', () => {
  describe('redirect_uris', () => {
    it('accepts https anywhere, and http on 127.0.0.1, [::1] and localhost with any port', () => {
      expect(
        redirectUrisRefusal([
          'https://claude.ai/api/mcp/auth_callback',
          'https://app.example:8443/cb?x=1',
          'http://127.0.0.1/callback',
          'http://127.0.0.1:53682/callback',
          'http://[::1]:8080/cb',
          'http://localhost:33418/',
        ]),
      ).toBeUndefined();
    });

    it(`accepts ${MAX_REDIRECT_URIS} and refuses ${MAX_REDIRECT_URIS + 1}`, () => {
      const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://app.example/cb/${i}`);
      expect(redirectUrisRefusal(uris(MAX_REDIRECT_URIS))).toBeUndefined();
      expect(redirectUrisRefusal(uris(MAX_REDIRECT_URIS + 1))).toBe(
        'redirect_uris must hold at most 10 URIs',
      );
    });

    it.each([
      ['http://evil.example/cb', 'must use https'],
      ['http://127.0.0.2/cb', 'must use https'],
      ['http://[::ffff:127.0.0.1]/cb', 'must use https'],
      ['http://localhost.evil.example/cb', 'must use https'],
      ['myapp://callback', 'must use https'],
      ['javascript:alert(1)', 'must use https'],
      ['https://app.example/cb#frag', 'must not contain a fragment'],
      ['https://app.example/cb#', 'must not contain a fragment'],
      ['http://127.0.0.1:4000/cb#x', 'must not contain a fragment'],
      ['https://claude.ai@evil.example/cb', 'must not contain a user name or password'],
      ['not a url', 'must be a valid URL'],
    ])('refuses %s', (uri, reason) => {
      expect(redirectUrisRefusal(['https://app.example/ok', uri])).toMatch(
        new RegExp(`^redirect_uris\\[1\\] ${reason}`),
      );
    });

    it('names the failing entry, so oidc-provider answers invalid_redirect_uri', () => {
      expect(redirectUrisRefusal([42])).toBe('redirect_uris[0] must be a string');
    });

    it('leaves a value that is not a list to oidc-provider’s own checks', () => {
      expect(redirectUrisRefusal(undefined)).toBeUndefined();
      expect(redirectUrisRefusal('https://app.example/cb')).toBeUndefined();
    });
  });

  describe('client_name', () => {
    it('accepts a product’s name, in any script, up to the limit', () => {
      expect(clientNameRefusal('Claude')).toBeUndefined();
      expect(clientNameRefusal('Assistant für Büro — 日本語 🤖')).toBeUndefined();
      expect(clientNameRefusal('x'.repeat(MAX_CLIENT_NAME_LENGTH))).toBeUndefined();
      // Counted in characters, not UTF-16 units.
      expect(clientNameRefusal('🤖'.repeat(MAX_CLIENT_NAME_LENGTH))).toBeUndefined();
    });

    it('is optional', () => {
      expect(clientNameRefusal(undefined)).toBeUndefined();
    });

    it.each([
      ['a 500-character name', 'x'.repeat(500)],
      ['one character over', 'x'.repeat(MAX_CLIENT_NAME_LENGTH + 1)],
      ['an empty name', ''],
      ['only spaces', '   '],
    ])('refuses %s', (_what, name) => {
      expect(clientNameRefusal(name)).toBe('client_name must be 1 to 100 characters, not only spaces');
    });

    it.each([
      ['a newline', 'Claude\n— will return you to claude.ai'],
      ['a NUL', 'Claude\u0000'],
      ['an escape sequence', 'Claude\u001b[2J'],
      ['DEL', 'Claude\u007f'],
      ['a line separator', 'Claude\u2028claude.ai'],
      ['a right-to-left override', 'Claude \u202eia.edualc'],
      ['a direction isolate', 'Claude\u2066x\u2069'],
    ])('refuses %s', (_what, name) => {
      expect(clientNameRefusal(name)).toBe('client_name must not contain control or direction characters');
    });

    it('refuses what is not a string', () => {
      expect(clientNameRefusal(null)).toBe('client_name must be a string');
      expect(clientNameRefusal(['Claude'])).toBe('client_name must be a string');
    });
  });
});
