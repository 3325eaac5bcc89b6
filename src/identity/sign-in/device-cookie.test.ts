import { randomBytes } from 'node:crypto';
import { DeviceCookies } from './device-cookie';

const KEY = randomBytes(32).toString('hex');
const DAY = 24 * 60 * 60 * 1000;

describe('DeviceCookies', () => {
  let now = Date.UTC(2026, 10, 29);
  const sut = new DeviceCookies(KEY, 365, () => now);

  it('reads back the device of a cookie it issued, for the same email in any spelling', () => {
    const value = sut.issue('Ada@Example.com');
    const device = sut.deviceFor(value, ' ada@example.COM ');
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(value).not.toContain('ada');
    // Each sign-in issues a new device.
    expect(sut.deviceFor(sut.issue('ada@example.com'), 'ada@example.com')).not.toBe(device);
  });

  it("gives no device for another account's cookie, a changed one, or one signed with another key", () => {
    const value = sut.issue('ada@example.com');
    expect(sut.deviceFor(value, 'bob@example.com')).toBeUndefined();

    const [version, tag, nonce, issued, signature] = value.split('.') as [
      string,
      string,
      string,
      string,
      string,
    ];
    const otherTag = sut.issue('bob@example.com').split('.')[1]!;
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    for (const altered of [
      [version, otherTag, nonce, issued, signature], // another account, same signature
      [version, tag, flip(nonce), issued, signature], // a fresh nonce, minted by a thief
      [version, tag, nonce, (parseInt(issued, 36) + 1000).toString(36), signature], // younger
      [version, tag, nonce, issued, flip(signature)],
      ['v2', tag, nonce, issued, signature],
      [tag, nonce, issued, signature],
    ]) {
      expect(sut.deviceFor(altered.join('.'), 'ada@example.com')).toBeUndefined();
    }
    const elsewhere = new DeviceCookies(randomBytes(32).toString('hex'), 365, () => now);
    expect(elsewhere.deviceFor(value, 'ada@example.com')).toBeUndefined();
    for (const junk of [undefined, '', 'x', '.....', 'v1.a.b.c.d', 'v1.' + 'a'.repeat(300)]) {
      expect(sut.deviceFor(junk, 'ada@example.com')).toBeUndefined();
    }
  });

  it('stops being valid after its lifetime', () => {
    const value = sut.issue('ada@example.com');
    now += 364 * DAY;
    expect(sut.deviceFor(value, 'ada@example.com')).toBeDefined();
    now += 2 * DAY;
    expect(sut.deviceFor(value, 'ada@example.com')).toBeUndefined();
  });
});
