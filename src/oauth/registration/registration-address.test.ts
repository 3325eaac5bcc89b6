import { registrationAddressKey } from './registration-address';

describe('the address client registrations are counted against', () => {
  it('is an IPv4 address as it is, and an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(registrationAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(registrationAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(registrationAddressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = '2001:db8:85a3:8d3::/64';
    expect(registrationAddressKey('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(key);
    expect(registrationAddressKey('2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff')).toBe(key);
    expect(registrationAddressKey('2001:DB8:85A3:8D3::1')).toBe(key);
    expect(registrationAddressKey('2001:db8:85a3:8d3::1%eth0')).toBe(key);
    expect(registrationAddressKey('2001:db8:85a3:8d4::1')).toBe('2001:db8:85a3:8d4::/64');
  });

  it('expands a compressed prefix', () => {
    expect(registrationAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(registrationAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(registrationAddressKey('fe80::')).toBe('fe80:0:0:0::/64');
    expect(registrationAddressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('keeps anything else apart from addresses', () => {
    expect(registrationAddressKey('')).toBe('other:');
    expect(registrationAddressKey('not-an-ip')).toBe('other:not-an-ip');
    expect(registrationAddressKey('x'.repeat(1000))).toBe(`other:${'x'.repeat(64)}`);
  });
});
