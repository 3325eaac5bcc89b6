import { createHmac } from 'node:crypto';
import { standardWebhooksKey, standardWebhooksSecret } from '../../shared/webhooks/standard-webhooks';
import { signStandardWebhook, standardWebhookHeaders } from './standard-webhooks';

/** The key a `whsec_` secret stands for, as the libraries decode it. */
const keyOf = (serialized: string) => Buffer.from(serialized.slice('whsec_'.length), 'base64');

/**
 * The test vectors of the reference libraries (github.com/standard-webhooks/standard-webhooks,
 * libraries/javascript/src/webhook.test.ts "sign function works", the same in the Go and Python
 * libraries; libraries/rust/src/lib.rs `test_sign`).
 */
const VECTORS = [
  {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  {
    secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    id: 'msg_27UH4WbU6Z5A5EzD8u03UvzRbpk',
    timestamp: 1649367553,
    body: '{"email":"test@example.com","username":"test_user"}',
    signature: 'v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw=',
  },
];

describe('signStandardWebhook', () => {
  it.each(VECTORS)(
    'signs $id as the reference libraries do',
    ({ secret, id, timestamp, body, signature }) => {
      expect(signStandardWebhook(keyOf(secret), { id, timestamp, body })).toBe(signature);
      expect(signStandardWebhook(keyOf(secret), { id, timestamp, body: Buffer.from(body) })).toBe(signature);
    },
  );

  it('signs "{id}.{timestamp}.{body}" over the body’s UTF-8 bytes', () => {
    const message = { id: 'evt-1', timestamp: 1700000000, body: '{"name":"Zoë 👍"}' };
    const expected = createHmac('sha256', 'k')
      .update(Buffer.from('evt-1.1700000000.{"name":"Zoë 👍"}', 'utf8'))
      .digest('base64');
    expect(signStandardWebhook(standardWebhooksKey('k'), message)).toBe(`v1,${expected}`);
  });

  it('changes with the id, the timestamp and every byte of the body', () => {
    const key = standardWebhooksKey('k');
    const base = { id: 'evt-1', timestamp: 1700000000, body: '{"a":1}' };
    const signatures = [
      base,
      { ...base, id: 'evt-2' },
      { ...base, timestamp: 1700000001 },
      { ...base, body: '{ "a": 1 }' },
    ].map((message) => signStandardWebhook(key, message));
    expect(new Set(signatures).size).toBe(4);
  });

  it.each([
    ['an id with a full stop', { id: 'evt.1', timestamp: 1 }],
    ['an empty id', { id: '', timestamp: 1 }],
    ['milliseconds', { id: 'evt-1', timestamp: 1.5 }],
    ['a negative time', { id: 'evt-1', timestamp: -1 }],
  ])('refuses %s', (_label, message) => {
    expect(() => signStandardWebhook(standardWebhooksKey('k'), { ...message, body: '{}' })).toThrow();
  });
});

describe('the key of a webhook secret', () => {
  it('is what the secret given to the libraries (standardWebhooksSecret) decodes to there', () => {
    for (const secret of ['quickstart-secret-1', 'Zoë 👍', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw']) {
      expect(keyOf(standardWebhooksSecret(secret))).toEqual(Buffer.from(standardWebhooksKey(secret)));
    }
  });

  it('of a whsec_ secret signs as the reference libraries do with that secret as it is', () => {
    const [vector] = VECTORS;
    const { secret, id, timestamp, body, signature } = vector!;
    expect(standardWebhookHeaders({ id, timestamp, body }, [secret])['webhook-signature']).toBe(signature);
  });
});

describe('standardWebhookHeaders', () => {
  const message = { id: 'e8d2f3b0-1c7a-4f55-9d0e-6a1b2c3d4e5f', timestamp: 1764680400, body: '{"a":1}' };
  const sign = (secret: string) => signStandardWebhook(standardWebhooksKey(secret), message);

  it('carries the id, the timestamp and one signature per secret, current first, space-separated', () => {
    expect(standardWebhookHeaders(message, ['new-secret', 'old-secret'])).toEqual({
      'webhook-id': message.id,
      'webhook-timestamp': '1764680400',
      'webhook-signature': `${sign('new-secret')} ${sign('old-secret')}`,
    });
    expect(standardWebhookHeaders(message, ['only'])['webhook-signature']).toBe(sign('only'));
  });

  it('has no signature header without a secret', () => {
    expect(standardWebhookHeaders(message, [])).toEqual({
      'webhook-id': message.id,
      'webhook-timestamp': '1764680400',
    });
  });
});
