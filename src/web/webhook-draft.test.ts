import { describe, expect, it } from '@jest/globals';
import { secretRotationOf, WebhookDraftError } from './webhook-draft';

describe('secretRotationOf', () => {
  it('sends the new secret and the grace period in whole hours', () => {
    expect(secretRotationOf('new-secret', '24')).toEqual({ secret: 'new-secret', graceHours: 24 });
    expect(secretRotationOf('new-secret', ' 0 ')).toEqual({ secret: 'new-secret', graceHours: 0 });
  });

  it.each([
    ['an empty secret', '', '24', 'Enter the new secret'],
    ['a secret over 256 characters', 's'.repeat(257), '24', 'at most 256'],
    ['25 hours', 'new-secret', '25', 'from 0 to 24'],
    ['a negative grace', 'new-secret', '-1', 'from 0 to 24'],
    ['a fraction of an hour', 'new-secret', '1.5', 'from 0 to 24'],
    ['an empty grace', 'new-secret', '', 'from 0 to 24'],
  ])('refuses %s', (_label, secret, hours, message) => {
    expect(() => secretRotationOf(secret, hours)).toThrow(WebhookDraftError);
    expect(() => secretRotationOf(secret, hours)).toThrow(message);
  });
});
