import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt } from './send.js';
import { isPrivateAddress, targetProblem } from './target.js';

const ownAddresses = Object.values(networkInterfaces())
  .flat()
  .map((entry) => entry?.address)
  .filter((address): address is string => typeof address === 'string' && !address.startsWith('127.') && address !== '::1');

describe("isPrivateAddress: every special-purpose range of IANA's registries, and this host", () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network"'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.254', 'benchmarking'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fd00::1', 'unique local'],
    ['fc00::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:10.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated'],
    ['64:ff9b::127.0.0.1', 'NAT64'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['4000::1', 'outside global unicast'],
    ['not-an-address', 'not an address'],
  ])('%s is refused (%s)', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '198.20.0.1',
    '2606:4700::1111',
    '2a00:1450:4001::1',
  ])('%s is an ordinary public address', (address) => expect(isPrivateAddress(address)).toBe(false));

  it("refuses this host's own addresses", () => {
    for (const address of ownAddresses) expect(isPrivateAddress(address), address).toBe(true);
  });
});

describe('targetProblem', () => {
  it('refuses a name that resolves to loopback without saying what it resolved to, unless private targets are allowed', async () => {
    const problem = await targetProblem('http://localhost:1/x', false);
    expect(problem).toMatch(/special-purpose/);
    expect(problem).not.toMatch(/127\.0\.0\.1|::1/);
    expect(await targetProblem('http://localhost:1/x', true)).toBeNull();
    expect(await targetProblem('http://[64:ff9b::127.0.0.1]/x', false)).toMatch(/special-purpose/);
    expect(await targetProblem('http://93.184.216.34/x', false)).toBeNull();
  });
});

describe('attempt: the address is checked again when sending (DNS may have changed since creation)', () => {
  let hits = 0;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      hits++;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (host: string, allowPrivate: boolean) =>
    attempt({
      url: `http://${host}:${port}/hook`,
      secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      eventId: 'e1',
      payload: '{}',
      timeoutMs: 2000,
      allowPrivate,
    });

  it.each(['127.0.0.1', 'localhost'])('refuses %s without connecting', async (host) => {
    const outcome = await send(host, false);
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/^refused: /);
    expect(outcome.error).not.toMatch(/resolves to/);
    expect(hits).toBe(0);
  });

  it('sends when private targets are allowed', async () => {
    expect(await send('localhost', true)).toMatchObject({ ok: true, status: 200, body: 'ok', error: null });
    expect(hits).toBe(1);
  });
});
