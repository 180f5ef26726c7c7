import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt } from './send.js';
import { isPrivateAddress, targetProblem } from './target.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false));
});

describe('targetProblem', () => {
  it('refuses a name that resolves to loopback, unless private targets are allowed', async () => {
    expect(await targetProblem('http://localhost:1/x', false)).toMatch(/loopback, private or link-local/);
    expect(await targetProblem('http://localhost:1/x', true)).toBeNull();
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
    expect(hits).toBe(0);
  });

  it('sends when private targets are allowed', async () => {
    expect(await send('localhost', true)).toMatchObject({ ok: true, status: 200, body: 'ok', error: null });
    expect(hits).toBe(1);
  });
});
