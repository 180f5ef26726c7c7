import { type LookupAddress, lookup } from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may send: only to ordinary public unicast addresses. Every special-purpose range of IANA's
 * IPv4 and IPv6 registries is refused (ipaddr.js names them: loopback, private, link-local, unique- and
 * site-local, unspecified, carrier-grade NAT, IPv4-mapped and -translated, NAT64, 6to4, Teredo,
 * benchmarking, documentation, multicast, reserved...), and so are IPv4-compatible IPv6 (::a.b.c.d, which
 * some stacks still route to the IPv4 it carries), IPv6 outside global unicast 2000::/3, and this host's
 * own addresses. The rule holds at creation and again at every attempt (checked on the very lookup the
 * connection uses, so a DNS answer that changes in between — rebinding — cannot slip through).
 * STOREFRONT_WEBHOOK_ALLOW_PRIVATE=true lifts it (tests, private networks).
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether a webhook must not go to `address` (anything not an IP address is refused too). */
export function isPrivateAddress(address: string): boolean {
  const text = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return true;
  const parsed = ipaddr.parse(text);
  if (parsed.range() !== 'unicast') return true;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return true; // ::/96, IPv4-compatible
    if (!v6.match(GLOBAL_UNICAST_V6)) return true;
  }
  return isOwnAddress(parsed);
}

/** One of the addresses this host's interfaces have now (read at each check: interfaces come and go). */
function isOwnAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const normalized = address.toNormalizedString();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const own = entry.address.replace(/%.*$/, '');
      if (ipaddr.isValid(own) && ipaddr.parse(own).toNormalizedString() === normalized) return true;
    }
  }
  return false;
}

/** The host as a lookup takes it: URL keeps IPv6 literals in brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

// The refusal says what was refused, never what a name resolved to: a caller must not learn the service's
// internal DNS by creating webhooks.
const REFUSED = 'must not point at a special-purpose (loopback, private, link-local, reserved...) address or at this server';

/**
 * Why `url`'s host is not a place webhooks may go (null when it is). A name that does not resolve now is
 * accepted: the check that counts runs at each attempt.
 */
export async function targetProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(url));
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  return addresses.some(isPrivateAddress) ? REFUSED : null;
}

// A resolver that does not answer must not hold a request for long: the name is then judged at each attempt.
const LOOKUP_WAIT_MS = 3000;

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), LOOKUP_WAIT_MS);
    lookup(host, { all: true }, (error, addresses: LookupAddress[]) => {
      clearTimeout(timer);
      resolve(error ? [] : addresses.map((entry) => entry.address));
    });
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class PrivateTargetError extends Error {
  code = 'EPRIVATE';
}

/** A `lookup` for http.request that refuses special-purpose answers: the connection goes only where was checked. */
export function guardedLookup(allowPrivate: boolean) {
  return (host: string, options: object, callback: LookupCallback): void => {
    lookup(host, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const blocked = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      // Named without its address: the delivery's lastError is shown to the webhook's owner.
      if (blocked) return callback(new PrivateTargetError(`${host} ${REFUSED}`), []);
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
