import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importAndRun } from '../../test/support/jobs.fixtures.js';

/**
 * One store's exports cannot take the others': at most 4 open per store (the 5th a 429 with Retry-After),
 * a process's own export capacity is shared among stores (no two take all of it), and a reader that stops
 * taking what it is sent is cut after the socket timeout (here 1 s), freeing its slot.
 */

let t: TestContext;

/** The file's app, with `socketTimeoutMs` (the stall timeout of an export) for the tests of one describe block. */
function useApp(socketTimeoutMs: number, dbPoolSize = 10): void {
  beforeAll(async () => {
    t = await setupTestApp({ socketTimeoutMs, dbPoolSize });
  });
  afterAll(() => t.close());
}

/** 260 products: two chunks, the first far over the 16 KB a response buffers before it waits for its reader. */
async function bigStore(): Promise<TestStore> {
  const store = await t.newStore();
  const lines = Array.from({ length: 260 }, (_, i) => ({
    handle: `p-${i}`,
    title: `Product ${i}`,
    price: 1,
    description: 'x'.repeat(400),
  }));
  expect(await importAndRun(t, store, 'products', lines)).toMatchObject({ status: 'succeeded', created: 260 });
  return store;
}

/** An export whose body is read only as the test reads it (backpressure reaches the server's stream). */
async function openExport(store: TestStore) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/v1/exports/products',
    headers: { authorization: `Bearer ${store.token}` },
    payloadAsStream: true,
  });
  return { status: response.statusCode, body: response.stream() as Readable };
}

const openSlots = async (store: TestStore) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM store_slots
      WHERE store_id = ${store.id} AND kind = 'export' AND lease_until > now()`.execute(t.database.db)
  ).rows[0].n;

async function until(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Reads a body to its end (or its error): the lines received, and whether it was cut. */
async function drain(body: Readable): Promise<{ lines: number; cut: boolean }> {
  let text = '';
  try {
    for await (const chunk of body) text += chunk;
    return { lines: text.split('\n').filter(Boolean).length, cut: false };
  } catch {
    return { lines: text.split('\n').filter(Boolean).length, cut: true };
  }
}

describe('exports per store', () => {
  // unread exports are held open for as long as the test takes: the default stall timeout; a process
  // capacity of 10 exports, so that one store alone reaches its store's 4
  useApp(60_000, 20);

  it("store A's 4 open exports do not stop store B's; A's 5th is a 429 with Retry-After until one ends", async () => {
    const a = await bigStore();
    const b = await t.newStore();
    await t.call(b, 'POST', '/products', { title: 'B', price: 1 });
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await openExport(a));
    expect(open.map((e) => e.status)).toEqual([200, 200, 200, 200]);
    expect(await openSlots(a)).toBe(4);

    const fifth = await t.call(a, 'GET', '/exports/products');
    expectError(fifth, 429, 'RATE_LIMITED');
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(0);
    const other = await t.call(b, 'GET', '/exports/products');
    expect(other.status).toBe(200);
    expect(String(other.body).split('\n').filter(Boolean)).toHaveLength(1);

    // read to the end, the exports free their slots
    for (const { body } of open) expect(await drain(body)).toEqual({ lines: 260, cut: false });
    await until(async () => (await openSlots(a)) === 0);
    expect((await t.call(a, 'GET', '/exports/products')).status).toBe(200);
  }, 120_000);
});

describe("a process's export capacity, shared among stores", () => {
  // a pool of 10: the process runs 5 exports at once
  useApp(60_000, 10);

  it('A and C hold stalled exports as far as they may; B still gets one', async () => {
    const a = await bigStore();
    const c = await bigStore();
    const b = await t.newStore();
    await t.call(b, 'POST', '/products', { title: 'B', price: 1 });
    // A opens exports until refused (within its store's 4): a quarter of the capacity stays for others
    const held = [];
    let statusA = 200;
    while (held.length < 4) {
      const opened = await openExport(a);
      if (opened.status !== 200) {
        statusA = opened.status;
        break;
      }
      held.push(opened);
    }
    expect(statusA).toBe(429);
    const heldByA = held.length;
    const ofC = await openExport(c);
    expect(ofC.status).toBe(200);
    held.push(ofC);
    // C's second would leave the last unit to two stores: refused
    const secondOfC = await t.call(c, 'GET', '/exports/products');
    expectError(secondOfC, 429, 'RATE_LIMITED');
    expect(Number(secondOfC.headers['retry-after'])).toBeGreaterThan(0);

    const ofB = await t.call(b, 'GET', '/exports/products');
    expect(ofB.status).toBe(200);
    expect(String(ofB.body).split('\n').filter(Boolean)).toHaveLength(1);
    expect(heldByA).toBe(3);

    for (const { body } of held) expect(await drain(body)).toEqual({ lines: 260, cut: false });
    await until(async () => (await openSlots(a)) === 0);
    expect((await t.call(c, 'GET', '/exports/products')).status).toBe(200);
  }, 120_000);
});

describe('a stalled reader', () => {
  useApp(1_000);

  it('a reader that takes a piece every 3 s is cut after the 1 s socket timeout, and its slot freed', async () => {
    const a = await bigStore();
    const { status, body } = await openExport(a);
    expect(status).toBe(200);
    let received = 0;
    let cut = false;
    body.on('error', () => {
      cut = true;
    });
    body.on('end', () => {
      cut = cut || received < 260;
    });
    // a slow reader: a small piece, then 3 s of nothing, again (each read tells the server it may send on)
    for (let i = 0; i < 10 && !cut && !body.readableEnded && !body.destroyed; i++) {
      const piece = body.read(1024) as Buffer | null;
      if (piece) received += piece.toString().split('\n').length - 1;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    expect(cut || body.destroyed).toBe(true);
    expect(received).toBeLessThan(260);
    await until(async () => (await openSlots(a)) === 0);
    expect(await openSlots(a)).toBe(0);
  }, 120_000);
});
