import { ValidationError } from '../app-error';
import {
  checkStandardHeaderNames,
  standardHeaderCollisions,
  standardWebhooksSecret,
} from './standard-webhooks';

describe('standardWebhooksSecret', () => {
  it.each([
    ['my secret', 'whsec_bXkgc2VjcmV0'],
    // Computed outside JavaScript: printf '%s' 'quickstart-secret-1' | base64
    ['quickstart-secret-1', 'whsec_cXVpY2tzdGFydC1zZWNyZXQtMQ=='],
    // UTF-8 bytes, not UTF-16 code units: printf '%s' 'Zoë 👍' | base64
    ['Zoë 👍', 'whsec_Wm/DqyDwn5GN'],
    // A secret that looks like a serialized key is still taken as its characters.
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_d2hzZWNfTWZLUTlyOEdLWXFyVHdqVVBEOElMUFpJbzJMYUxhU3c='],
  ])('gives %s to the libraries as %s', (secret, serialized) => {
    expect(standardWebhooksSecret(secret)).toBe(serialized);
    expect(Buffer.from(serialized.slice('whsec_'.length), 'base64').toString('utf8')).toBe(secret);
  });
});

describe('standardHeaderCollisions', () => {
  it('names the scheme’s own headers in any letter case, and nothing else', () => {
    expect(
      standardHeaderCollisions([
        'X-Team',
        'Webhook-Signature',
        'WEBHOOK-ID',
        'webhook-timestamp',
        'webhook-ids',
      ]),
    ).toEqual(['Webhook-Signature', 'WEBHOOK-ID', 'webhook-timestamp']);
    expect(standardHeaderCollisions([])).toEqual([]);
  });
});

describe('checkStandardHeaderNames', () => {
  it('refuses each colliding header at its path, as a reserved name', () => {
    let refused: unknown;
    try {
      checkStandardHeaderNames(['X-Team', 'Webhook-Id', 'webhook-signature']);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['headers', 'Webhook-Id'], customCode: 'webhookHeaderNameReserved' }),
      expect.objectContaining({
        path: ['headers', 'webhook-signature'],
        customCode: 'webhookHeaderNameReserved',
      }),
    ]);
  });

  it('accepts other names', () => {
    expect(() => checkStandardHeaderNames(['X-Team', 'Webhook-Source'])).not.toThrow();
  });
});
