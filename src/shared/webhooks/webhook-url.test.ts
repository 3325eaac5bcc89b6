import { ValidationError } from '../app-error';
import { isLoopbackHost, normalizeWebhookUrl, WEBHOOK_URL_MAX } from './webhook-url';

/** The customCode a refused URL carries, after checking the issue's shape. */
function refusal(input: string): string | undefined {
  try {
    normalizeWebhookUrl(input);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'invalid', path: ['url'] });
    return issues[0]!.customCode;
  }
}

describe('normalizeWebhookUrl', () => {
  it.each([
    ['https://example.com/hook', 'https://example.com/hook'],
    ['  https://example.com/hook \n', 'https://example.com/hook'],
    ['example.com/hook', 'https://example.com/hook'],
    ['example.com', 'https://example.com/'],
    ['example.com:8080/hook', 'https://example.com:8080/hook'],
    ['localhost:3000', 'https://localhost:3000/'],
    ['//example.com/hook', 'https://example.com/hook'],
    ['http://example.com/hook', 'http://example.com/hook'],
    ['HTTPS://EXAMPLE.com:443/Hook', 'https://example.com/Hook'],
    ['http://127.0.0.1:8080/x?y=1#z', 'http://127.0.0.1:8080/x?y=1#z'],
    ['http://[::1]:9000/', 'http://[::1]:9000/'],
    ['https://example.com./hook', 'https://example.com./hook'],
    ['https://hooks_internal.local/x', 'https://hooks_internal.local/x'],
    ['https://bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
    ['bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
    ['https://例え.jp/パス?q=ä', 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%A4'],
    ['https://example.com/a b', 'https://example.com/a%20b'],
    // A bare name and a port read as host and port, not as a scheme (documented decision).
    ['tel:12345', 'https://tel:12345/'],
  ])('saves %j as %j', (input, saved) => {
    expect(normalizeWebhookUrl(input)).toBe(saved);
  });

  it.each([
    ['mailto:ops@example.com', 'webhookUrlSchemeNotAllowed'],
    ['tel:+15551234567', 'webhookUrlSchemeNotAllowed'],
    ['ftp://example.com/file', 'webhookUrlSchemeNotAllowed'],
    ['javascript:alert(1)', 'webhookUrlSchemeNotAllowed'],
    ['ws://example.com/socket', 'webhookUrlSchemeNotAllowed'],
    ['file:///etc/passwd', 'webhookUrlSchemeNotAllowed'],
    ['', 'webhookUrlHostInvalid'],
    ['   ', 'webhookUrlHostInvalid'],
    ['http://', 'webhookUrlHostInvalid'],
    ['https://', 'webhookUrlHostInvalid'],
    ['https://exa mple.com', 'webhookUrlHostInvalid'],
    ['exa mple.com', 'webhookUrlHostInvalid'],
    ['https://a..b', 'webhookUrlHostInvalid'],
    ['https://.', 'webhookUrlHostInvalid'],
    ['https://exa!mple.com', 'webhookUrlHostInvalid'],
    ['https://example.com:99999', 'webhookUrlHostInvalid'],
    [`https://${'a'.repeat(64)}.com`, 'webhookUrlHostInvalid'],
    ['https://user:secret@example.com/hook', 'webhookUrlCredentialsNotAllowed'],
    ['https://user@example.com/hook', 'webhookUrlCredentialsNotAllowed'],
    ['https://:secret@example.com/hook', 'webhookUrlCredentialsNotAllowed'],
    ['https://exa\tmple.com', 'webhookUrlInvalid'],
    ['https://example.com/a\nb', 'webhookUrlInvalid'],
    ['https://example.com/\u0000', 'webhookUrlInvalid'],
  ])('refuses %j with %s', (input, customCode) => {
    expect(refusal(input)).toBe(customCode);
  });

  const prefix = 'https://example.com/';
  it.each([
    ['at the limit', WEBHOOK_URL_MAX, undefined],
    ['one past the limit', WEBHOOK_URL_MAX + 1, 'webhookUrlTooLong'],
  ])('measures the saved form: %s', (_label, length, customCode) => {
    expect(refusal(prefix + 'a'.repeat(length - prefix.length))).toBe(customCode);
  });

  it('measures the length after percent-encoding', () => {
    // 1,000 characters typed, 6,000 saved: "ä" is 6 characters once encoded.
    expect(refusal(prefix + 'ä'.repeat(1000))).toBe('webhookUrlTooLong');
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['::1', true],
    ['127.0.0.2', false],
    ['localhost.', false],
    ['localhost.example.com', false],
    ['example.com', false],
    ['0.0.0.0', false],
  ])('%j → %s', (hostname, expected) => {
    expect(isLoopbackHost(hostname)).toBe(expected);
  });

  it.each(['http://LOCALHOST:1/', 'http://127.1/', 'http://[0:0:0:0:0:0:0:1]/'])(
    'recognizes %j once WHATWG has normalized it',
    (url) => {
      expect(isLoopbackHost(new URL(url).hostname)).toBe(true);
    },
  );
});
