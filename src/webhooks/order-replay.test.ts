import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { apiKey } from '../../test/support/collections.fixtures.js';
import { settled } from '../../test/support/feed.fixtures.js';

// Three retries, the last 5 s after the one before: an event that fails keeps its record's later events
// waiting, and a busy machine still delivers the other records' events within that wait.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({
    webhookWorker: true,
    webhookAllowPrivate: true,
    webhookRetrySchedule: [0.3, 0.3, 5],
    webhookTimeoutMs: 2000,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
  });
});
afterAll(() => t.close());

interface Received {
  eventId: string;
  type: string;
  recordId: string;
  title?: string;
}

/** A receiver that answers `answer(event)` and notes every request, in arrival order. */
async function receiver(answer: (event: Received, hits: Received[]) => number = () => 200) {
  const hits: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const event = JSON.parse(body);
      const hit = { eventId: event.id, type: event.type, recordId: event.data.id, title: event.data.title };
      hits.push(hit);
      response.statusCode = answer(hit, hits);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const subscribe = async (store: TestStore, url: string, events = ['*']) =>
  (await t.call(store, 'POST', '/webhooks', { url, events })).body.data as { id: string };

async function feed(store: TestStore): Promise<{ id: string; type: string; createdAt: string; data: { id: string } }[]> {
  // On PostgreSQL any open transaction of the cluster (another test file) holds the feed back: wait it out.
  await settled(t);
  return (await t.call(store, 'GET', '/events?limit=250')).body.data;
}

describe('ordered delivery per record', () => {
  it("a record's later events wait while an earlier one fails and is retried; other records' events flow", async () => {
    const store = await t.newStore();
    // A's first event (its creation) fails twice, and a third time unless the five others have all arrived:
    // it is retried at the latest 5 s later, which a busy machine needs to deliver them (never a wall-clock race).
    let failures = 0;
    const othersSeen = new Set<string>();
    const hook = await receiver((event) => {
      if (event.title?.startsWith('B')) othersSeen.add(event.recordId);
      if (event.type === 'product.created' && event.title === 'A' && (failures < 2 || (failures < 3 && othersSeen.size < 5))) {
        failures++;
        return 500;
      }
      return 200;
    });
    await subscribe(store, hook.url, ['product.created', 'product.updated']);
    const a = (await t.call(store, 'POST', '/products', { title: 'A' })).body.data;
    await t.call(store, 'PATCH', `/products/${a.id}`, { title: 'A', description: 'one' });
    await t.call(store, 'PATCH', `/products/${a.id}`, { description: 'two' });
    const others = [];
    for (let i = 0; i < 5; i++) others.push((await t.call(store, 'POST', '/products', { title: `B${i}` })).body.data);

    const ofA = () => hook.hits.filter((hit) => hit.recordId === a.id);
    await until(ofA, (hits) => hits.filter((hit) => hit.type === 'product.updated').length >= 2);
    const aEvents = (await feed(store)).filter((event) => event.data.id === a.id).map((event) => event.id);
    // A: its creation once per failure and once more, and only then its two updates, in feed order.
    expect(ofA().map((hit) => hit.eventId)).toEqual([...Array(failures + 1).fill(aEvents[0]), aEvents[1], aEvents[2]]);
    // The others did not wait for A: all five arrived before A's first update.
    const firstUpdateOfA = hook.hits.findIndex((hit) => hit.recordId === a.id && hit.type === 'product.updated');
    const othersAt = others.map((other) => hook.hits.findIndex((hit) => hit.recordId === other.id));
    expect(othersAt.every((at) => at >= 0 && at < firstUpdateOfA)).toBe(true);
    await hook.close();
  });

  it('a record whose earlier event finally fails gets its next one after that, not before', async () => {
    const store = await t.newStore();
    const hook = await receiver((event) => (event.type === 'product.created' ? 503 : 200));
    const { id } = await subscribe(store, hook.url, ['product.created', 'product.updated']);
    const a = (await t.call(store, 'POST', '/products', { title: 'A' })).body.data;
    await t.call(store, 'PATCH', `/products/${a.id}`, { description: 'x' });
    await until(
      () => hook.hits,
      (hits) => hits.some((hit) => hit.type === 'product.updated'),
    );
    // Four attempts of the creation (n + 1 for a schedule of 3), all before the update.
    expect(hook.hits.map((hit) => hit.type)).toEqual([
      'product.created',
      'product.created',
      'product.created',
      'product.created',
      'product.updated',
    ]);
    const deliveries = (await t.call(store, 'GET', `/webhooks/${id}/deliveries`)).body.data;
    expect(deliveries.map((row: { type: string; status: string }) => [row.type, row.status]).sort()).toEqual([
      ['product.created', 'failed'],
      ['product.updated', 'succeeded'],
    ]);
    await hook.close();
  });
});

const replaysOf = (store: TestStore) => () =>
  t.database.db.selectFrom('webhook_replays').select('id').where('store_id', '=', store.id).execute();

describe('replay', () => {
  it('delivers again, in feed order, the events after an event id, with their ids as webhook-id', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const { id } = await subscribe(store, hook.url, ['product.created']);
    for (const title of ['P1', 'P2', 'P3']) await t.call(store, 'POST', '/products', { title });
    await t.call(store, 'POST', '/collections', { title: 'Not subscribed' });
    await until(
      () => hook.hits,
      (hits) => hits.length >= 3,
    );
    const events = (await feed(store)).filter((event) => event.type === 'product.created');
    const reply = await t.call(store, 'POST', `/webhooks/${id}/replay`, { after: events[0].id });
    expect(reply.status).toBe(202);
    expect(reply.body.data).toEqual({ queued: 2 });
    await until(
      () => hook.hits,
      (hits) => hits.length >= 5,
    );
    expect(hook.hits.slice(3).map((hit) => hit.eventId)).toEqual([events[1].id, events[2].id]);
    // done: the replay's row is gone (the claim after its last batch finds nothing left)
    await until(replaysOf(store), (rows) => rows.length === 0);
    expect(await replaysOf(store)()).toEqual([]);
    expect(hook.hits).toHaveLength(5);
    await hook.close();
  });

  it("by time: since and until bound the range by the events' createdAt", async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const { id } = await subscribe(store, hook.url);
    await t.call(store, 'POST', '/products', { title: 'old' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.call(store, 'POST', '/products', { title: 'middle' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until_ = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.call(store, 'POST', '/products', { title: 'new' });
    await until(
      () => hook.hits,
      (hits) => hits.length >= 3,
    );
    const reply = await t.call(store, 'POST', `/webhooks/${id}/replay`, { since, until: until_ });
    expect(reply).toMatchObject({ status: 202, body: { data: { queued: 1 } } });
    await until(
      () => hook.hits,
      (hits) => hits.length >= 4,
    );
    expect(hook.hits[3].title).toBe('middle');
    // one replay per webhook at a time: the next once this one is done
    await until(replaysOf(store), (rows) => rows.length === 0);
    const all = await t.call(store, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' });
    expect(all.body.data).toEqual({ queued: 3 });
    await hook.close();
  });

  it('needs a range, an event of this store, the webhook of this store, webhooks:write and the read scopes', async () => {
    const store = await t.newStore();
    const { id } = await subscribe(store, 'http://127.0.0.1:9/hook', ['order.created']);
    const none = await t.call(store, 'POST', `/webhooks/${id}/replay`, {});
    expect(none.status).toBe(400);
    expect(none.body.error.details[0].field).toBe('after');
    const other = await t.newStore();
    await t.call(other, 'POST', '/products', { title: 'elsewhere' });
    const elsewhere = (await feed(other))[0];
    const foreignEvent = await t.call(store, 'POST', `/webhooks/${id}/replay`, { after: elsewhere.id });
    expect(foreignEvent.status).toBe(400);
    expect(foreignEvent.body.error.details[0].field).toBe('after');
    expect((await t.call(other, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' })).status).toBe(404);
    expect((await t.call(store, 'POST', `/webhooks/${id}/replay`, { since: 'yesterday' })).status).toBe(400);
    const reader = await apiKey(t, store, ['webhooks:read', 'orders:read']);
    expect((await t.call(reader, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' })).status).toBe(403);
    const writerWithoutOrders = await apiKey(t, store, ['webhooks:write']);
    expect((await t.call(writerWithoutOrders, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' })).status).toBe(403);
    const writer = await apiKey(t, store, ['webhooks:write', 'orders:read']);
    expect(await t.call(writer, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' })).toMatchObject({
      status: 202,
      body: { data: { queued: 0 } },
    });
  });

  it('is made in batches: a range longer than one batch is delivered whole, each event once', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const { id } = await subscribe(store, hook.url, ['product.created']);
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: false });
    // More events than a replay's batch (500), with the webhook off (no live deliveries).
    const products = Array.from({ length: 600 }, (_, i) => ({ title: `Bulk ${i}` }));
    for (let i = 0; i < products.length; i += 100) {
      await Promise.all(products.slice(i, i + 100).map((body) => t.call(store, 'POST', '/products', body)));
    }
    // A replay counts the events the feed shows; on PostgreSQL a transaction anywhere in the cluster (another
    // test file's database) holds the newest back for a moment, so all 600 are waited for first.
    await settled(t);
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: true });
    const reply = await t.call(store, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' });
    expect(reply.body.data).toEqual({ queued: 600 });
    await until(
      () => hook.hits,
      (hits) => hits.length >= 600,
      120_000,
    );
    expect(new Set(hook.hits.map((hit) => hit.eventId)).size).toBe(600);
    await hook.close();
  }, 240_000);
});
