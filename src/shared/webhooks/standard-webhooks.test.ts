import { ValidationError } from '../app-error';
import {
  checkStandardHeaderNames,
  GENERATED_SECRET_BYTES,
  newWebhookSecret,
  standardHeaderCollisions,
  standardWebhooksKey,
  standardWebhooksSecret,
} from './standard-webhooks';

describe('standardWebhooksSecret', () => {
  it.each([
    ['my secret', 'whsec_bXkgc2VjcmV0'],
    // Computed outside JavaScript: printf '%s' 'quickstart-secret-1' | base64
    ['quickstart-secret-1', 'whsec_cXVpY2tzdGFydC1zZWNyZXQtMQ=='],
    // UTF-8 bytes, not UTF-16 code units: printf '%s' 'Zoë 👍' | base64
    ['Zoë 👍', 'whsec_Wm/DqyDwn5GN'],
    // whsec_ with what is not canonical base64 (no padding, stray bits, another alphabet): characters.
    ['whsec_hello', 'whsec_d2hzZWNfaGVsbG8='],
    ['whsec_YR==', 'whsec_d2hzZWNfWVI9PQ=='],
    ['whsec_a-b_', 'whsec_d2hzZWNfYS1iXw=='],
    ['whsec_', 'whsec_d2hzZWNf'],
  ])('gives the secret %s, keyed with its UTF-8 bytes, to the libraries as %s', (secret, serialized) => {
    expect(standardWebhooksSecret(secret)).toBe(serialized);
    expect(Buffer.from(serialized.slice('whsec_'.length), 'base64').toString('utf8')).toBe(secret);
    expect(Buffer.from(standardWebhooksKey(secret)).toString('utf8')).toBe(secret);
  });

  it.each([
    // Svix's and the reference libraries' test secret (24 bytes), and a generated one (32 bytes).
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    newWebhookSecret(new Uint8Array(GENERATED_SECRET_BYTES).fill(7)),
  ])('gives a whsec_ secret (%s) to the libraries as it is, keyed with the bytes it encodes', (secret) => {
    expect(standardWebhooksSecret(secret)).toBe(secret);
    expect(Buffer.from(standardWebhooksKey(secret))).toEqual(Buffer.from(secret.slice(6), 'base64'));
  });
});

describe('newWebhookSecret', () => {
  it('serializes 32 random bytes as whsec_ + base64: 50 characters', () => {
    const bytes = Uint8Array.from({ length: GENERATED_SECRET_BYTES }, (_, index) => index * 7);
    const secret = newWebhookSecret(bytes);
    expect(secret).toBe(`whsec_${Buffer.from(bytes).toString('base64')}`);
    expect(secret).toHaveLength(50);
  });

  it('refuses another number of bytes', () => {
    expect(() => newWebhookSecret(new Uint8Array(16))).toThrow(RangeError);
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
