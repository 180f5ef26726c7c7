import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { settled } from '../../test/support/feed.fixtures.js';
import { createStorefrontClient, type EventBatch, unwrap } from './index.js';

// client.events.listen() against a real server on 127.0.0.1 (both engines): it follows the feed live with
// long polls, resumes from a saved cursor, and never skips an event.

let t: TestContext;
let baseUrl: string;
beforeAll(async () => {
  t = await setupTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
}, 300_000);
afterAll(() => t?.close());

const clientOf = (store: TestStore) => createStorefrontClient({ baseUrl, token: store.token });

async function createProducts(store: TestStore, titles: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) ids.push(unwrap(await clientOf(store).POST('/products', { body: { title } })).id);
  await settled(t);
  return ids;
}

/**
 * Takes batches until `count` events are in, saving the cursor after each batch as a consumer would. With
 * next() rather than for-await, whose break would end the generator: the test goes on with it.
 */
async function take(batches: AsyncGenerator<EventBatch>, count: number, saved: { cursor: string | null }): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const next = await batches.next();
    if (next.done) break;
    ids.push(...next.value.events.map((event) => event.data.id));
    saved.cursor = next.value.cursor;
  }
  return ids;
}

describe('client.events.listen()', () => {
  it('follows the feed live, then resumes from the saved cursor without skipping or repeating an event', async () => {
    const store = await t.newStore();
    const client = clientOf(store);
    const first = await createProducts(store, ['a', 'b', 'c']);
    const saved: { cursor: string | null } = { cursor: null };
    const running = client.events.listen({ limit: 2, wait: 20 });
    // the first three are there; the fourth commits while the listener is held in a long poll
    const seen = await take(running, 3, saved);
    const live = take(running, 1, saved);
    const fourth = await createProducts(store, ['d']);
    seen.push(...(await live));
    expect(seen).toEqual([...first, ...fourth]);

    // stopped (the process exits); more commits meanwhile; a new run resumes from the saved cursor
    const later = await createProducts(store, ['e', 'f', 'g']);
    const resumed = await take(clientOf(store).events.listen({ cursor: saved.cursor, limit: 2, wait: 20 }), 3, saved);
    expect(resumed).toEqual(later);
  });

  it('a consumer that stops before saving a batch sees that batch again, and nothing after it is lost', async () => {
    const store = await t.newStore();
    const ids = await createProducts(store, ['a', 'b', 'c', 'd', 'e']);
    const batches = clientOf(store).events.listen({ limit: 2, wait: 5, types: ['product.created'] });
    const first = (await batches.next()).value as EventBatch;
    const cursor = first.cursor;
    await batches.next(); // handled partly, then the consumer crashed: its cursor was never saved
    await batches.return(undefined);
    const saved = { cursor };
    const again = await take(clientOf(store).events.listen({ cursor, limit: 2, wait: 5, types: ['product.created'] }), 3, saved);
    expect([...first.events.map((event) => event.data.id), ...again]).toEqual(ids);
  });

  it('ends when its signal aborts, also in the middle of a long poll', async () => {
    const store = await t.newStore();
    const stop = new AbortController();
    const batches = clientOf(store).events.listen({ wait: 60, signal: stop.signal });
    const next = batches.next();
    setTimeout(() => stop.abort(), 300);
    const started = Date.now();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
