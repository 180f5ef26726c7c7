import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may send: not to the service's own network. A host that resolves to a loopback, private,
 * link-local or unspecified address is refused, at creation and again at every attempt (the answer is
 * checked on the very lookup the connection uses, so a DNS answer that changes in between — rebinding —
 * cannot slip through). STOREFRONT_WEBHOOK_ALLOW_PRIVATE=true lifts the rule (tests, private networks).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT: private in practice
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** Loopback, private, link-local, unspecified (IPv4-mapped IPv6 is judged as the IPv4 it carries). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host as a lookup takes it: URL keeps IPv6 literals in brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why `url`'s host is not a place webhooks may go (null when it is). A name that does not resolve now is
 * accepted: the check that counts runs at each attempt.
 */
export async function targetProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(url));
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  const blocked = addresses.find(isPrivateAddress);
  return blocked ? `must not point at a loopback, private or link-local address (${host} is ${blocked})` : null;
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

/** A `lookup` for http.request that refuses private answers: the connection goes only where was checked. */
export function guardedLookup(allowPrivate: boolean) {
  return (host: string, options: object, callback: LookupCallback): void => {
    lookup(host, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const blocked = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (blocked) return callback(new PrivateTargetError(`${host} resolves to ${blocked.address}, a private address`), []);
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
