import { ValidationError } from '../shared/app-error';
import { checkTransportRule, transportRuleViolation } from './transport-rule';

describe('transport rule', () => {
  it.each([
    // Without custom headers, plain http is fine for any host.
    ['http://example.com/hook', false, true],
    ['https://example.com/hook', false, true],
    ['http://10.0.0.5/hook', false, true],
    // With custom headers: https anywhere, http only on the spec's three loopback names.
    ['https://example.com/hook', true, true],
    ['http://localhost:3000/hook', true, true],
    ['http://127.0.0.1:8080/hook', true, true],
    ['http://[::1]:8080/hook', true, true],
    ['http://LOCALHOST/hook', true, true],
    ['http://example.com/hook', true, false],
    ['http://127.0.0.2/hook', true, false],
    ['http://localhost.example.com/hook', true, false],
    ['http://192.168.1.10/hook', true, false],
    // A stored URL that no longer parses cannot prove it is safe.
    ['not a url', true, false],
  ])('%s with headers %s: allowed %s', (url, hasHeaders, allowed) => {
    expect(transportRuleViolation(url, hasHeaders) === undefined).toBe(allowed);
    if (allowed) {
      expect(() => checkTransportRule(url, hasHeaders)).not.toThrow();
    } else {
      expect(transportRuleViolation(url, hasHeaders)).toMatch(/https/);
    }
  });

  it('refuses on save with webhookHeadersNeedHttps on the url', () => {
    let thrown: unknown;
    try {
      checkTransportRule('http://example.com/hook', true);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).issues).toEqual([
      {
        code: 'invalid',
        path: ['url'],
        message: transportRuleViolation('http://example.com/hook', true),
        customCode: 'webhookHeadersNeedHttps',
      },
    ]);
  });
});
