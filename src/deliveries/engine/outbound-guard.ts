import ipaddr from 'ipaddr.js';

/**
 * The outbound guard (docs/deliveries.md, "Where deliveries may go"): which addresses a delivery
 * may connect to. Pure; the sender applies it to every address a host resolves to, and connects
 * only to an address it checked.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/** The parsed OUTBOUND_ALLOWED_CIDRS: private or loopback ranges an operator opened. */
export type AllowList = readonly Cidr[];

/** Loopback, which the embedded stack (`npm start`) allows by default for local receivers. */
export const LOOPBACK_CIDRS: readonly string[] = ['127.0.0.0/8', '::1/128'];

/** Never reachable, whatever the allow-list says: cloud metadata lives at 169.254.169.254. */
const ALWAYS_REFUSED: Record<string, string> = {
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
};

/** Inside the network: refused unless the allow-list covers the address. */
const INTERNAL: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'carrier-grade NAT (shared)',
  uniqueLocal: 'unique-local (private)',
  deprecatedSiteLocal: 'site-local (private)',
};

export interface OutboundRefusal {
  /** The address as checked (an IPv4 address when an IPv6 form embeds one). */
  address: string;
  /** e.g. "link-local", "private". */
  range: string;
  /** Whether OUTBOUND_ALLOWED_CIDRS could allow it. */
  allowable: boolean;
}

/** Parses CIDR strings ("10.0.0.0/8", "::1/128"); throws on a malformed one. */
export function parseAllowList(cidrs: readonly string[]): AllowList {
  return cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
}

/** The allow-list a process uses: the setting, or by default loopback when embedded and nothing otherwise. */
export function allowedCidrsFor(setting: readonly string[] | undefined, embedded: boolean): string[] {
  return [...(setting ?? (embedded ? LOOPBACK_CIDRS : []))];
}

/** Why `address` (an IP literal) must not be connected to, or null when it may be. */
export function checkOutboundAddress(address: string, allowList: AllowList): OutboundRefusal | null {
  if (!ipaddr.isValid(address)) return { address, range: 'unrecognised', allowable: false };
  const parsed = embeddedIPv4(ipaddr.parse(address));
  const range = parsed.range();
  const shown = parsed.toString();
  const always = ALWAYS_REFUSED[range];
  if (always) return { address: shown, range: always, allowable: false };
  const internal = INTERNAL[range];
  if (!internal) return null;
  const allowed = allowList.some(
    ([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits),
  );
  return allowed ? null : { address: shown, range: internal, allowable: true };
}

/**
 * A listener of the service itself (its API, its metrics, PostgreSQL, the Temporal frontend and Web
 * UI): deliveries never reach it, whatever OUTBOUND_ALLOWED_CIDRS allows, so a webhook cannot turn
 * the worker against the stack's own control plane. `address` is the IP it listens on; `0.0.0.0`
 * or `::` for every address of the machine.
 */
export interface OwnListener {
  /** What it is, for the reader of the code (never told to the webhook's owner). */
  name: string;
  address: string;
  port: number;
}

/**
 * The service's own listener at `address`:`port`, or null. A loopback listener is reached through
 * any loopback address; one on every address through loopback, the unspecified address or any of
 * `localAddresses` (the machine's own).
 */
export function ownListenerAt(
  address: string,
  port: number,
  listeners: readonly OwnListener[],
  localAddresses: readonly string[] = [],
): OwnListener | null {
  if (!ipaddr.isValid(address)) return null;
  const destination = embeddedIPv4(ipaddr.parse(address));
  const isLoopback = destination.range() === 'loopback' || destination.range() === 'unspecified';
  const local = isLoopback || localAddresses.some((own) => sameAddress(own, destination));
  for (const listener of listeners) {
    if (listener.port !== port || !ipaddr.isValid(listener.address)) continue;
    const at = embeddedIPv4(ipaddr.parse(listener.address));
    const range = at.range();
    if (
      range === 'unspecified'
        ? local
        : range === 'loopback'
          ? isLoopback
          : sameAddress(at.toString(), destination)
    )
      return listener;
  }
  return null;
}

function sameAddress(address: string, destination: Address): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = embeddedIPv4(ipaddr.parse(address));
  return parsed.kind() === destination.kind() && parsed.toString() === destination.toString();
}

/**
 * Why the service's own listener at `address` is refused, as the delivery's message will say it
 * (issue 34, item 7): exactly what any refused address of its range says where the allow-list does
 * not open it, with no port and nothing that marks it as the stack's own. A message that said "one
 * of the service's own listeners" mapped which loopback ports are the stack's. An own listener on
 * an address no range refuses (the machine's public address) reads as an internal address.
 */
export function ownListenerRefusal(address: string): OutboundRefusal {
  return (
    checkOutboundAddress(address, []) ?? {
      address: ipaddr.isValid(address) ? embeddedIPv4(ipaddr.parse(address)).toString() : address,
      range: 'internal',
      allowable: true,
    }
  );
}

/** The delivery's failure message for a refused address reached as `host`. */
export function refusalMessage(refusal: OutboundRefusal, host: string): string {
  const article = /^[aeiou]/.test(refusal.range) ? 'an' : 'a';
  const subject =
    host === refusal.address
      ? host
      : ipaddr.isValid(host)
        ? `${host} (${refusal.address})`
        : `${host} resolves to ${refusal.address}, which`;
  const unless = refusal.allowable ? ' unless OUTBOUND_ALLOWED_CIDRS allows it' : '';
  return `Not sent: ${subject} is ${article} ${refusal.range} address; outbound requests to it are refused${unless}.`;
}

/**
 * IPv6 forms that carry an IPv4 address and reach it (IPv4-mapped ::ffff:a.b.c.d, the SIIT form
 * ::ffff:0:a.b.c.d, NAT64 64:ff9b::a.b.c.d, IPv4-compatible ::a.b.c.d, 6to4 2002:aabb:ccdd::) are
 * judged by that IPv4 address, so ::ffff:169.254.169.254 is as link-local as 169.254.169.254.
 */
function embeddedIPv4(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const ipv6 = address as ipaddr.IPv6;
  const p = ipv6.parts;
  const last32 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  const range = ipv6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return last32();
  // The well-known NAT64 prefix 64:ff9b::/96 (not the local-use 64:ff9b:1::/48).
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0)) return last32();
  if (range === '6to4') return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
  // ::a.b.c.d (deprecated IPv4-compatible); :: and ::1 keep their own IPv6 meaning.
  if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7]! > 1)) return last32();
  return ipv6;
}
