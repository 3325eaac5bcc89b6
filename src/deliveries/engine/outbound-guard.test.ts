import {
  allowedCidrsFor,
  checkOutboundAddress,
  LOOPBACK_CIDRS,
  ownListenerAt,
  parseAllowList,
  refusalMessage,
} from './outbound-guard';

const none = parseAllowList([]);
const loopback = parseAllowList(LOOPBACK_CIDRS);
const everything = parseAllowList(['0.0.0.0/0', '::/0']);

describe('checkOutboundAddress', () => {
  it.each([
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    // IPv6 forms that carry an IPv4 address are judged by that address.
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:224.0.0.1', 'multicast'],
    ['::ffff:255.255.255.255', 'broadcast'],
    ['::ffff:0:169.254.169.254', 'link-local'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['::169.254.169.254', 'link-local'],
    ['2002:a9fe:a9fe::1', 'link-local'],
  ])('always refuses %s (%s), even with everything allowed', (address, range) => {
    for (const allowList of [none, loopback, everything]) {
      expect(checkOutboundAddress(address, allowList)).toMatchObject({ range, allowable: false });
    }
  });

  it.each([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT (shared)'],
    ['100.127.255.254', 'carrier-grade NAT (shared)'],
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local (private)'],
    ['fd12:3456::1', 'unique-local (private)'],
    ['fec0::1', 'site-local (private)'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
  ])('refuses %s (%s) unless allowed', (address, range) => {
    expect(checkOutboundAddress(address, none)).toMatchObject({ range, allowable: true });
    expect(checkOutboundAddress(address, everything)).toBeNull();
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'lets public %s through with nothing allowed',
    (address) => expect(checkOutboundAddress(address, none)).toBeNull(),
  );

  it.each([
    ['127.0.0.1', true],
    ['127.0.0.53', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['192.168.0.1', false],
    ['fd00::1', false],
  ])('with loopback allowed, %s passes: %s', (address, passes) => {
    expect(checkOutboundAddress(address, loopback) === null).toBe(passes);
  });

  it('allows exactly the listed ranges', () => {
    const list = parseAllowList(['10.1.0.0/16', 'fd00:1::/32']);
    expect(checkOutboundAddress('10.1.200.3', list)).toBeNull();
    expect(checkOutboundAddress('10.2.0.1', list)).toMatchObject({ range: 'private' });
    expect(checkOutboundAddress('fd00:1:2::3', list)).toBeNull();
    expect(checkOutboundAddress('fd00:2::3', list)).toMatchObject({ range: 'unique-local (private)' });
    expect(checkOutboundAddress('127.0.0.1', list)).toMatchObject({ range: 'loopback' });
  });

  it('refuses what is not an IP address', () => {
    expect(checkOutboundAddress('localhost', everything)).toMatchObject({ allowable: false });
  });
});

describe('refusalMessage', () => {
  it('names the address and the rule', () => {
    expect(refusalMessage(checkOutboundAddress('169.254.169.254', none)!, '169.254.169.254')).toBe(
      'Not sent: 169.254.169.254 is a link-local address; outbound requests to it are refused.',
    );
    expect(refusalMessage(checkOutboundAddress('10.0.0.7', none)!, '10.0.0.7')).toBe(
      'Not sent: 10.0.0.7 is a private address; outbound requests to it are refused unless OUTBOUND_ALLOWED_CIDRS allows it.',
    );
    expect(refusalMessage(checkOutboundAddress('127.0.0.1', none)!, 'localhost')).toBe(
      'Not sent: localhost resolves to 127.0.0.1, which is a loopback address; outbound requests to it are refused unless OUTBOUND_ALLOWED_CIDRS allows it.',
    );
    expect(refusalMessage(checkOutboundAddress('::ffff:169.254.169.254', none)!, '::ffff:a9fe:a9fe')).toMatch(
      /^Not sent: ::ffff:a9fe:a9fe \(169\.254\.169\.254\) is a link-local address;/,
    );
  });
});

describe('allowedCidrsFor', () => {
  it('defaults to loopback when embedded and to nothing in external mode; a setting wins', () => {
    expect(allowedCidrsFor(undefined, true)).toEqual(['127.0.0.0/8', '::1/128']);
    expect(allowedCidrsFor(undefined, false)).toEqual([]);
    expect(allowedCidrsFor([], true)).toEqual([]);
    expect(allowedCidrsFor(['10.0.0.0/8'], false)).toEqual(['10.0.0.0/8']);
  });
});

describe('ownListenerAt', () => {
  const listeners = [
    { name: 'Temporal', address: '127.0.0.1', port: 8233 },
    { name: 'the API', address: '0.0.0.0', port: 3000 },
    { name: 'PostgreSQL', address: '10.0.0.7', port: 5432 },
  ];

  it.each([
    ['127.0.0.1', 8233, 'Temporal'],
    ['127.0.0.5', 8233, 'Temporal'],
    ['::ffff:127.0.0.1', 8233, 'Temporal'],
    ['::1', 8233, 'Temporal'],
    ['127.0.0.1', 3000, 'the API'],
    ['0.0.0.0', 3000, 'the API'],
    ['192.168.1.20', 3000, 'the API'],
    ['10.0.0.7', 5432, 'PostgreSQL'],
  ])('%s:%d is %s', (address, port, name) => {
    expect(ownListenerAt(address, port, listeners, ['192.168.1.20'])?.name).toBe(name);
  });

  it.each([
    ['127.0.0.1', 4000],
    ['192.168.1.21', 3000],
    ['10.0.0.8', 5432],
    ['203.0.113.5', 8233],
    ['not an address', 8233],
  ])('%s:%d is not one of them', (address, port) => {
    expect(ownListenerAt(address, port, listeners, ['192.168.1.20'])).toBeNull();
  });
});
