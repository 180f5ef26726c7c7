import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { apiKey } from '../../test/support/collections.fixtures.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { buildApp } from '../app.js';
import { withTx } from '../db/index.js';

/**
 * `GET /events?wait=` (docs/events.md, "Long poll"): held while the page would be empty, answered when an
 * event after its position commits, or empty when its time is up; answered at once when the server stops.
 * Bounds are generous (the machine is shared): what is asserted is that the answer came from the commit,
 * long before the wait would have run out.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const { readOn, body } = feedOf(() => t);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function longPoll(store: TestStore, cursor: string, query = '', context: TestContext = t) {
  const started = Date.now();
  return context.call(store, 'GET', `/events?wait=60&cursor=${encodeURIComponent(cursor)}${query}`).then((reply) => ({
    reply,
    at: Date.now(),
    took: Date.now() - started,
  }));
}

describe('GET /events?wait= (long poll)', () => {
  it('is answered by the next commit, with that event, long before its wait runs out', async () => {
    const store = await t.newStore();
    const { cursor } = await readOn(store);
    const waiting = longPoll(store, cursor);
    await sleep(300);
    const product = await body(store, 'POST', '/products', { title: 'Live', price: 1 });
    const committed = Date.now();
    const { reply, at } = await waiting;
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id])).toEqual([
      ['product.created', product.id],
    ]);
    expect(reply.body.pagination.nextCursor).not.toBe(cursor);
    // within 1 s of the commit by design; 20 s of slack for a loaded machine, still a third of the wait
    expect(at - committed).toBeLessThan(20_000);
  });

  it('is answered at once when the page is not empty, and with several events when several committed', async () => {
    const store = await t.newStore();
    const { cursor } = await readOn(store);
    await body(store, 'POST', '/collections', { title: 'A' });
    await body(store, 'POST', '/collections', { title: 'B' });
    const { events } = await readOn(store, '', cursor);
    const { reply } = await longPoll(store, cursor);
    expect(reply.body.data.map((e: { id: string }) => e.id)).toEqual(events.map((e) => e.id));
  });

  it('answers the empty page with the same cursor when its wait runs out', async () => {
    const store = await t.newStore();
    await body(store, 'POST', '/collections', { title: 'Before' });
    const { cursor } = await readOn(store);
    const started = Date.now();
    const reply = await t.call(store, 'GET', `/events?wait=1&cursor=${encodeURIComponent(cursor)}`);
    const took = Date.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    expect(reply.body.pagination).toEqual({ limit: 25, nextCursor: cursor, hasMore: false });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(30_000);
  });

  it('a waiter for some types is not answered by other types, and is by its own', async () => {
    const store = await t.newStore();
    const { cursor } = await readOn(store, 'types=customer.created');
    let answered = false;
    const waiting = longPoll(store, cursor, '&types=customer.created').then((result) => {
      answered = true;
      return result;
    });
    await body(store, 'POST', '/products', { title: 'Not this', price: 1 });
    await sleep(1500);
    expect(answered).toBe(false);
    const customer = await body(store, 'POST', '/customers', { userName: 'live', password: 'long-secret-1' });
    const { reply } = await waiting;
    expect(reply.body.data.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id])).toEqual([
      ['customer.created', customer.id],
    ]);
  });

  it('another store’s commit does not answer it', async () => {
    const [store, other] = [await t.newStore(), await t.newStore()];
    const { cursor } = await readOn(store);
    const started = Date.now();
    const waiting = t.call(store, 'GET', `/events?wait=2&cursor=${encodeURIComponent(cursor)}`);
    await body(other, 'POST', '/products', { title: 'Elsewhere', price: 1 });
    const reply = await waiting;
    expect(reply.body.data).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it.each(['0', '61', 'x', '1.5', '-1'])('wait=%s is a 400 naming wait', async (value) => {
    const store = await t.newStore();
    const error = expectError(await t.call(store, 'GET', `/events?wait=${value}`), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => [d.field, d.in])).toContainEqual(['wait', 'query']);
  });

  it.skipIf(engine !== 'postgres')(
    'keeps commit order: an event held back by an older open transaction answers no waiter alone',
    async () => {
      const store = await t.newStore();
      const { cursor } = await readOn(store);
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let appended = () => {};
      const isAppended = new Promise<void>((resolve) => {
        appended = resolve;
      });
      const older = withTx(t.database.db, async (trx) => {
        await t.afterWork.append(trx, store.id, { type: 'product.updated', data: { id: '000000000000000000000001' } });
        appended();
        await released;
      });
      await isAppended;
      const waiting = longPoll(store, cursor);
      // newer: committed while the older transaction is open; its NOTIFY arrives now, its event may not be shown yet
      const newer = await body(store, 'POST', '/products', { title: 'Newer', price: 1 });
      await sleep(1000);
      release();
      await older;
      const { reply } = await waiting;
      const first = reply.body.data.map((e: { data: { id: string } }) => e.data.id);
      // the answer starts with the older event; the newer one may follow in it or, while some other
      // transaction of the cluster (another test file) is still open, only in a later read
      expect(first[0]).toBe('000000000000000000000001');
      const { events: rest } = await readOn(store, '', reply.body.pagination.nextCursor);
      expect([...first, ...rest.map((e) => e.data.id)]).toEqual(['000000000000000000000001', newer.id]);
    },
  );
});

/** Counts the feed's page reads (SELECTs from events with a LIMIT) of the app built on it. */
function countingPageReads(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery(args: PluginTransformQueryArgs) {
      const node = args.node as { kind: string; from?: { froms: { table?: { identifier?: { name?: string } } }[] }; limit?: unknown };
      if (node.kind === 'SelectQueryNode' && node.limit && node.from?.froms[0]?.table?.identifier?.name === 'events') this.count++;
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result;
    },
  };
}

describe('many waiters on one cursor', () => {
  it('are answered by one commit with one read of the page, not one each', async () => {
    const reads = countingPageReads();
    const counted = await buildApp({ config: t.config, database: { ...t.database, db: t.database.db.withPlugin(reads) } });
    try {
      const store = await t.newStore();
      const { cursor } = await readOn(store);
      // 50 waiters, the store's most: 10 of each of 5 keys (a credential's most) with the same scopes
      const keys = [];
      for (let i = 0; i < 5; i++) keys.push(await apiKey(t, store, ['events:read', 'products:read']));
      const poll = (key: string) =>
        counted.inject({
          method: 'GET',
          url: `/api/v1/events?wait=60&cursor=${encodeURIComponent(cursor)}`,
          headers: { authorization: `Bearer ${key}` },
        });
      const waiting = keys.flatMap((key) => Array.from({ length: 10 }, () => poll(key)));
      // each waiter's first read, which found nothing (and a moment to be held after it)
      for (const deadline = Date.now() + 60_000; reads.count < 50 && Date.now() < deadline; ) await sleep(50);
      await sleep(500);
      const before = reads.count;
      expect(before).toBe(50);
      const product = await body(store, 'POST', '/products', { title: 'For all', price: 1 });
      const answers = await Promise.all(waiting);
      for (const answer of answers)
        expect(JSON.parse(answer.body).data.map((e: { data: { id: string } }) => e.data.id)).toEqual([product.id]);
      // one per check that woke them (a few at most on a loaded machine), never one per waiter
      expect(reads.count - before).toBeLessThanOrEqual(5);
    } finally {
      await counted.close();
    }
  });
});

describe('waiters on shutdown', () => {
  it('app.close() answers every waiting request at once, with its empty page', async () => {
    const own = await setupTestApp();
    const store = await own.newStore();
    const first = await own.call(store, 'GET', '/events');
    const cursor = first.body.pagination.nextCursor as string;
    const waiting = Array.from({ length: 5 }, () => longPoll(store, cursor, '', own));
    await sleep(500);
    const closing = Date.now();
    await own.close();
    const results = await Promise.all(waiting);
    for (const { reply } of results) {
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual([]);
      expect(reply.body.pagination.nextCursor).toBe(cursor);
    }
    // not their 60 s wait
    expect(Date.now() - closing).toBeLessThan(20_000);
  });
});
