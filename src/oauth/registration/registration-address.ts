import { isIPv4, isIPv6 } from 'node:net';

/**
 * What client registrations are counted against: the request's address as Koa's `ctx.ip` gives it
 * (the socket's, or with TRUST_PROXY the proxy's X-Forwarded-For). IPv4 as it is, an IPv4-mapped
 * IPv6 address as its IPv4, and any other IPv6 address by its /64: a single host is usually handed
 * a whole /64, so counting single IPv6 addresses would be no limit at all.
 */
export function registrationAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  const groups = isIPv6(ip) ? ipv6Groups(ip) : undefined;
  // Not an address (a forwarded header's junk): kept apart, and short enough for the counter's key.
  if (!groups) return `other:${ip.slice(0, 64)}`;
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, each without leading zeros (a zone id is dropped). */
function ipv6Groups(ip: string): string[] | undefined {
  const halves = ip.split('%')[0]!.toLowerCase().split('::');
  if (halves.length > 2) return undefined;
  const parts = (half: string) => (half === '' ? [] : half.split(':'));
  const head = parts(halves[0]!);
  const tail = halves.length === 2 ? parts(halves[1]!) : [];
  // A trailing dotted IPv4 (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills the last two groups.
  const width = (group: string) => (group.includes('.') ? 2 : 1);
  const used = [...head, ...tail].reduce((sum, group) => sum + width(group), 0);
  const zeros = halves.length === 2 ? 8 - used : 0;
  if (zeros < 0 || (halves.length === 1 && used !== 8)) return undefined;
  return [...head, ...Array<string>(zeros).fill('0'), ...tail].map((group) =>
    group.includes('.') ? group : parseInt(group, 16).toString(16),
  );
}
