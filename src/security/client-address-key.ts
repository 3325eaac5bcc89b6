import ipaddr from 'ipaddr.js';

/**
 * What a client's attempts are counted against (sign-in and sign-up throttles, OAuth client
 * registration): the request's address as Koa's `ctx.ip` gives it (the socket's, or with
 * TRUST_PROXY the proxy's X-Forwarded-For). IPv4 as it is, an IPv4-mapped IPv6 address as its IPv4,
 * any other IPv6 address by its /64: one subscriber usually holds a whole /64, so counting single
 * IPv6 addresses would let it take a fresh one for every attempt. Anything else (a forwarded
 * header's junk) is kept apart, and short enough for a counter's key.
 */
export function clientAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return `other:${ip.slice(0, 64)}`;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const network = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...network, 0, 0, 0, 0]).toString()}/64`;
}
