import { signWebhookBody, verifyWebhookSignature } from './signature';

// Computed outside Node: printf '%s' BODY | openssl dgst -sha256 -hmac SECRET
const VECTORS = [
  {
    secret: 'whsec_test',
    body: '{"event":"record.created","id":"evt-1"}',
    signature: '123a3857e0d3130232493d584c3c5f65e75c1c1f50666de4325cbd326c5b7520',
  },
  {
    secret: 'k',
    body: 'Zoë 👍',
    signature: '123443b1a7de2a194d2a2823b6d757d18a5087d18ca4b1a4f6c10e2e491c17bc',
  },
  { secret: 'k', body: '', signature: '8bb990c40a7d61cb97597a942125025be50ac8beb74436e3735b98893a7f6620' },
];

describe('signWebhookBody', () => {
  it.each(VECTORS)('signs $body with $secret as openssl does', ({ secret, body, signature }) => {
    expect(signWebhookBody(secret, body)).toBe(signature);
    expect(signWebhookBody(secret, Buffer.from(body, 'utf8'))).toBe(signature);
  });

  it('signs the exact bytes: reformatting the same JSON changes the signature', () => {
    const compact = '{"a":1}';
    const spaced = '{ "a": 1 }';
    expect(signWebhookBody('s', compact)).not.toBe(signWebhookBody('s', spaced));
  });
});

describe('verifyWebhookSignature', () => {
  const { secret, body, signature } = VECTORS[0]!;

  it.each([
    ['the right signature', secret, body, signature, true],
    ['the right signature over a Buffer', secret, Buffer.from(body), signature, true],
    ['another secret', 'whsec_other', body, signature, false],
    ['another body', secret, body + ' ', signature, false],
    ['uppercase hex', secret, body, signature.toUpperCase(), false],
    ['a prefix', secret, body, `sha256=${signature}`, false],
    ['63 characters', secret, body, signature.slice(0, 63), false],
    ['65 characters', secret, body, `${signature}0`, false],
    ['surrounding whitespace', secret, body, ` ${signature}`, false],
    ['non-hex characters', secret, body, `${signature.slice(0, 63)}g`, false],
    ['an empty header', secret, body, '', false],
    ['no header', secret, body, undefined, false],
    ['one flipped digit', secret, body, `${signature.slice(0, 63)}1`, false],
  ])('%s → %s', (_label, key, raw, header, expected) => {
    expect(verifyWebhookSignature(key, raw, header)).toBe(expected);
  });
});
