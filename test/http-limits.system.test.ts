import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from './helpers.js';
import { pause, rawExchange, write, writeSlowly } from './support/raw-http.js';

/**
 * The HTTP server's limits, against a real listening server and raw sockets: slow and idle clients are
 * cut, connections beyond the cap are refused, and an over-limit body is answered with a 413 the client
 * can read. Deadlines are short here; the defaults are in README "Configuration".
 */
const LIMITS = {
  headersTimeoutMs: 1500,
  requestTimeoutMs: 2500,
  keepAliveTimeoutMs: 500,
  socketTimeoutMs: 60_000,
  maxConnections: 20,
  bodyLimit: 2048,
};

let ctx: TestContext;
let port: number;
let store: TestStore;

beforeAll(async () => {
  ctx = await setupTestApp(LIMITS);
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
  store = await ctx.newStore();
});

afterAll(async () => {
  await ctx?.close();
});

const envelope = (code: string) => ({ success: false, error: { code, message: expect.any(String), details: [] } });

describe('slow and idle clients', () => {
  it('cuts a client that trickles its body a byte at a time, with a 408 envelope, soon after STOREFRONT_REQUEST_TIMEOUT_MS', async () => {
    const outcome = await rawExchange(port, async (socket) => {
      await write(
        socket,
        `POST /api/v1/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${store.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
      );
      // 100 bytes, one every 200 ms: 20 s if nothing stops it.
      await writeSlowly(socket, Buffer.alloc(100, ' '), 1, 200);
    });
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(outcome.closedAfterMs).toBeLessThan(9_000);
    expect(outcome.status).toBe(408);
    expect(outcome.body).toEqual(envelope('REQUEST_TIMEOUT'));
  });

  it('closes a connection that never sends its headers, soon after STOREFRONT_HEADERS_TIMEOUT_MS', async () => {
    const outcome = await rawExchange(port, (socket) => write(socket, 'GET /healthz HTTP/1.1\r\nHost: x\r\n'));
    expect(outcome.closedAfterMs).toBeLessThan(7_000);
    expect(outcome.status).toBe(408);
  });

  it('closes an idle keep-alive connection after STOREFRONT_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const outcome = await rawExchange(port, (socket) => write(socket, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(outcome.status).toBe(200);
    expect(outcome.closedAfterMs).toBeLessThan(7_000);
  });

  it('refuses connections beyond STOREFRONT_MAX_CONNECTIONS at once and serves again when they go', async () => {
    const held = Array.from({ length: LIMITS.maxConnections }, () => net.connect(port, '127.0.0.1'));
    await Promise.all(held.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
    await pause(200);
    const refused = await rawExchange(port);
    // Closed by the cap as it arrives, with nothing written: not by the 1.5 s headers deadline (a 408).
    expect(refused.received).toBe('');
    expect(refused.closedAfterMs).toBeLessThan(LIMITS.headersTimeoutMs);
    for (const socket of held) socket.destroy();
    await pause(200);
    const served = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(served.status).toBe(200);
  });
});

describe('a body over STOREFRONT_BODY_LIMIT', () => {
  const body = Buffer.from(JSON.stringify({ title: 'x'.repeat(4 * LIMITS.bodyLimit) }));

  function head(framing: string): string {
    return `POST /api/v1/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${store.token}\r\nContent-Type: application/json\r\n${framing}\r\n`;
  }

  async function sendOversized(chunked: boolean) {
    return rawExchange(port, async (socket) => {
      if (!chunked) {
        await write(socket, head(`Content-Length: ${body.length}\r\n`));
        await writeSlowly(socket, body, 512, 2);
        return;
      }
      await write(socket, head('Transfer-Encoding: chunked\r\n'));
      for (let offset = 0; offset < body.length; offset += 512) {
        const piece = body.subarray(offset, offset + 512);
        await write(socket, Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
        await pause(2);
      }
      await write(socket, '0\r\n\r\n');
    });
  }

  it('is answered 413 with the envelope, and the client reads it every time (no EPIPE, no reset)', async () => {
    const outcomes = [];
    for (let attempt = 0; attempt < 40; attempt++) outcomes.push(await sendOversized(attempt % 2 === 1));
    const read413 = outcomes.filter((o) => o.status === 413 && o.body?.error?.code === 'PAYLOAD_TOO_LARGE').length;
    const errors = outcomes.flatMap((o) => o.errors);
    expect({ read413, errors }).toEqual({ read413: 40, errors: [] });
    expect(outcomes[0].body).toEqual(envelope('PAYLOAD_TOO_LARGE'));
    expect(outcomes[0].received).toMatch(/connection: close/i);
  });
});
