import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';

/**
 * Long polls are bounded (docs/events.md, "Long poll"): at most 10 waiting per credential and 50 per store
 * (beyond: 429 with Retry-After), and never more than half of STOREFRONT_MAX_CONNECTIONS together, so one
 * store's waiters cannot take the connections other stores need. Bounds on times are generous (shared
 * machine); what is asserted is counts: how many were held, how many refused, and that the other store got in.
 */

let t: TestContext;
let port: number;
// 40 connections: long polls may hold 20 of them
const MAX_CONNECTIONS = 40;

/** The file's app for one describe block, listening on a port of its own. */
function useApp(maxConnections: number): void {
  beforeAll(async () => {
    t = await setupTestApp({ maxConnections });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());
}

const { readOn, body } = feedOf(() => t);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventsKey(store: TestStore): Promise<string> {
  const key = await body(store, 'POST', '/api-keys', { name: `feed-${Math.random()}`, scopes: ['events:read', 'products:read'] });
  return key.key as string;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { success: boolean; error?: { code: string }; data?: unknown[] };
}

/** One request on a connection of its own (no keep-alive pool): what a client with many waiters opens. */
function request(credential: string, path: string): { answer: Promise<Answer>; settled: () => boolean } {
  let done = false;
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/api/v1${path}`, agent: false, headers: { authorization: `Bearer ${credential}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string, body: JSON.parse(text) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  }).finally(() => {
    done = true;
  });
  return { answer, settled: () => done };
}

function longPoll(credential: string, cursor: string) {
  return request(credential, `/events?wait=60&cursor=${encodeURIComponent(cursor)}`);
}

async function untilSettled(requests: { settled: () => boolean }[], count: number): Promise<void> {
  const end = Date.now() + 30_000;
  while (requests.filter((r) => r.settled()).length < count && Date.now() < end) await sleep(50);
}

describe('GET /events?wait= per credential and per store', () => {
  useApp(1_000);

  it('holds 10 per credential and 50 per store; beyond: 429 RATE_LIMITED with Retry-After, and held again once answered', async () => {
    const store = await t.newStore();
    const { cursor } = await readOn(store);
    const keys = [await eventsKey(store), await eventsKey(store), await eventsKey(store), await eventsKey(store)];
    const credentials = [store.token, ...keys];
    // 10 of each of 5 credentials: the store's 50
    const held = credentials.flatMap((credential) =>
      Array.from({ length: 10 }, () => t.call(credential, 'GET', `/events?wait=60&cursor=${encodeURIComponent(cursor)}`)),
    );
    await sleep(500);
    const overCredential = await t.call(store, 'GET', `/events?wait=60&cursor=${encodeURIComponent(cursor)}`);
    expectError(overCredential, 429, 'RATE_LIMITED');
    expect(Number(overCredential.headers['retry-after'])).toBeGreaterThan(0);
    const fifthKey = await eventsKey(store);
    expectError(await t.call(fifthKey, 'GET', `/events?wait=60&cursor=${encodeURIComponent(cursor)}`), 429, 'RATE_LIMITED');
    // a request that is answered at once (a page with events, or no wait) is never refused
    expect((await t.call(fifthKey, 'GET', '/events')).status).toBe(200);

    const product = await body(store, 'POST', '/products', { title: 'Wakes them', price: 1 });
    const answers = await Promise.all(held);
    expect(answers.map((reply) => reply.status)).toEqual(answers.map(() => 200));
    expect(answers.every((reply) => reply.body.data.some((e: { data: { id: string } }) => e.data.id === product.id))).toBe(true);

    // answered, they left: the credential may wait again
    const { cursor: after } = await readOn(store);
    const again = t.call(store, 'GET', `/events?wait=1&cursor=${encodeURIComponent(after)}`);
    expect((await again).status).toBe(200);
  }, 120_000);
});

describe('GET /events?wait= and the connections', () => {
  useApp(MAX_CONNECTIONS);

  it("one store's long polls take at most half the connections: another store still connects and is served", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    await body(b, 'POST', '/products', { title: 'B', price: 1 });
    const { cursor } = await readOn(a);
    const credentials = [a.token, await eventsKey(a), await eventsKey(a), await eventsKey(a)];
    // 40 long polls on connections of their own: as many as the server accepts
    const polls = credentials.flatMap((credential) => Array.from({ length: 10 }, () => longPoll(credential, cursor)));
    await untilSettled(polls, MAX_CONNECTIONS / 2);
    await sleep(300);
    const refused = polls.filter((poll) => poll.settled());
    expect(refused).toHaveLength(MAX_CONNECTIONS / 2);
    for (const { answer } of refused) {
      const { status, retryAfter, body: envelope } = await answer;
      expect(status).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(envelope).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    }

    // B connects and is served, promptly (a generous bound: its request waits for nothing of A's)
    const started = Date.now();
    const read = await request(b.token, '/products').answer;
    expect(read.status).toBe(200);
    expect(read.body.data).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);

    // A's held polls are answered by A's next commit
    await body(a, 'POST', '/products', { title: 'A', price: 1 });
    const held = await Promise.all(polls.filter((poll) => !refused.includes(poll)).map((poll) => poll.answer));
    expect(held.map((reply) => reply.status)).toEqual(held.map(() => 200));
  }, 120_000);
});
