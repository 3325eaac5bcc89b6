import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const sut = new SecretBox(randomBytes(32).toString('hex'));

  it('round-trips, with a fresh nonce each time, and never stores the plaintext', () => {
    const a = sut.seal('whsec_täst');
    const b = sut.seal('whsec_täst');
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec');
    expect(sut.open(a)).toBe('whsec_täst');
    expect(sut.open(sut.seal(''))).toBe('');
  });

  it('refuses tampered values and other keys', () => {
    const sealed = sut.seal('secret');
    const parts = sealed.split(':');
    parts[3] = Buffer.from('SECRET').toString('base64url');
    expect(() => sut.open(parts.join(':'))).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('hex')).open(sealed)).toThrow();
    expect(() => sut.open('plain')).toThrow('not a sealed value');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox('abcd')).toThrow();
  });
});
