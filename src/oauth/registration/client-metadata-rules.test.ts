import {
  MAX_CLIENT_NAME_LENGTH,
  MAX_REDIRECT_URIS,
  clientNameRefusal,
  controlCharacterRefusal,
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
      ['a newline', 'Claude\n— will return you to claude.ai', 'U+000A'],
      ['a NUL', 'Claude\u0000', 'U+0000'],
      ['an escape sequence', 'Claude\u001b[2J', 'U+001B'],
      ['DEL', 'Claude\u007f', 'U+007F'],
      ['a line separator', 'Claude\u2028claude.ai', 'U+2028'],
      ['a right-to-left override', 'Claude \u202eia.edualc', 'U+202E'],
      ['a direction isolate', 'Claude\u2066x\u2069', 'U+2066'],
      // Issue 34, item 7: invisible format characters (Unicode Cf) passed.
      ['a zero-width space', 'Claude\u200b', 'U+200B'],
      ['a zero-width joiner', 'Cla\u200dude', 'U+200D'],
      ['a word joiner', '\u2060Claude', 'U+2060'],
      ['an invisible separator', 'Claude\u2063', 'U+2063'],
      ['a byte order mark', '\ufeffClaude', 'U+FEFF'],
      ['a soft hyphen', 'Clau\u00adde', 'U+00AD'],
      ['a Hangul filler', 'Claude\u3164', 'U+3164'],
    ])('refuses %s', (_what, name, code) => {
      expect(clientNameRefusal(name)).toBe(
        `client_name must not contain control, direction or other invisible characters (${code})`,
      );
    });

    it('refuses what is not a string', () => {
      expect(clientNameRefusal(null)).toBe('client_name must be a string');
      expect(clientNameRefusal(['Claude'])).toBe('client_name must be a string');
    });
  });

  describe('control characters anywhere in the metadata (issue 34, item 7)', () => {
    it('finds none in ordinary metadata', () => {
      expect(
        controlCharacterRefusal({
          redirect_uris: ['https://app.example/cb'],
          client_name: 'Claude',
          client_uri: 'https://app.example/',
          contacts: ['ops@app.example'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'none',
        }),
      ).toBeUndefined();
    });

    it.each([
      [{ redirect_uris: ['https://app.example/ok', 'https://app.example/\u0000'] }, 'redirect_uris[1]'],
      [{ client_uri: 'https://app.example/\u0000' }, 'client_uri'],
      [{ logo_uri: 'https://app.example/logo\u0000.png' }, 'logo_uri'],
      [{ policy_uri: '\u0000' }, 'policy_uri'],
      [{ tos_uri: 'https://app.example/tos\u0007' }, 'tos_uri'],
      [{ contacts: ['a\u0000@app.example'] }, 'contacts[0]'],
      [{ jwks: { keys: [{ kid: 'k\u0000' }] } }, 'jwks["keys"][0]["kid"]'],
      [{ software_id: 'line\nbreak' }, 'software_id'],
    ])('refuses %j, naming %s', (metadata, at) => {
      expect(controlCharacterRefusal(metadata)).toBe(
        `${at} must not contain control characters (NUL, line breaks and the like)`,
      );
    });

    it('starts with redirect_uris for a redirect URI, so oidc-provider answers invalid_redirect_uri', () => {
      expect(controlCharacterRefusal({ redirect_uris: ['\u0000'] })).toMatch(/^redirect_uris\[0\] /);
    });

    it('looks into the own properties of oidc-provider’s metadata object, not only plain objects', () => {
      class Schema {
        logo_uri = 'https://app.example/\u0000';
      }
      expect(controlCharacterRefusal(new Schema())).toMatch(/^logo_uri /);
    });
  });
});
