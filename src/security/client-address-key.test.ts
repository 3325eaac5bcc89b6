import { clientAddressKey } from './client-address-key';

describe('the address a client is counted against', () => {
  it('is an IPv4 address as it is, and an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = '2001:db8:85a3:8d3::/64';
    expect(clientAddressKey('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(key);
    expect(clientAddressKey('2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientAddressKey('2001:DB8:85A3:8D3::1')).toBe(key);
    expect(clientAddressKey('2001:db8:85a3:8d3::1%eth0')).toBe(key);
    expect(clientAddressKey('2001:db8:85a3:8d4::1')).toBe('2001:db8:85a3:8d4::/64');
  });

  it('tells apart the /64s of short and special IPv6 addresses', () => {
    const keys = ['2001:db8::1', '::1', 'fe80::', '64:ff9b::192.0.2.33'].map(clientAddressKey);
    expect(keys).toEqual(['2001:db8::/64', '::/64', 'fe80::/64', '64:ff9b::/64']);
    expect(clientAddressKey('2001:db8:0:0:ffff::')).toBe(keys[0]);
  });

  it('keeps anything else apart, and short', () => {
    expect(clientAddressKey('')).toBe('other:');
    expect(clientAddressKey('not an address')).toBe('other:not an address');
    expect(clientAddressKey('x'.repeat(1000))).toBe(`other:${'x'.repeat(64)}`);
  });
});
