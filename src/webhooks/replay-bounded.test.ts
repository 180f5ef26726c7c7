import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { settled } from '../../test/support/feed.fixtures.js';

/**
 * A replay is delivered from the feed through its own cursor (docs/webhooks.md, "Replay"): a replay of
 * 20,000 events writes one replay row and no delivery row, a second replay of the same webhook is a 409
 * while it runs, DELETE /webhooks/{id}/replay stops it, DELETE /webhooks/{id} succeeds whatever runs, and a
 * replay's events all arrive, in feed order, each with its event id.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({
    webhookWorker: true,
    webhookAllowPrivate: true,
    webhookRetrySchedule: [0.2, 0.2],
    webhookTimeoutMs: 5000,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
  });
});
afterAll(() => t.close());

/** A receiver that answers 200 and notes each event id, in arrival order. */
async function receiver() {
  const ids: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      ids.push(JSON.parse(body).id);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `count` product.created events of the store, set-based (one statement), in id order = feed order. */
async function manyEvents(store: TestStore, count: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO events (store_id, id, type, data)
    SELECT ${store.id}, lpad(to_hex(i), 24, '0'), 'product.created', json_build_object('id', 'p' || (i % 97), 'n', i)
    FROM generate_series(1, ${count}) AS i ORDER BY i
    RETURNING id`.execute(t.database.db);
  await settled(t);
  return rows.map((row) => row.id).sort();
}

/** A webhook that was off while the events were written: only a replay sends them. */
async function quietWebhook(store: TestStore, url: string): Promise<string> {
  const { id } = (await t.call(store, 'POST', '/webhooks', { url, events: ['product.created'] })).body.data;
  await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: false });
  return id;
}

const rowsOf = async (store: TestStore) => {
  const count = async (table: 'webhook_deliveries' | 'webhook_replays') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('store_id', '=', store.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { deliveries: await count('webhook_deliveries'), replays: await count('webhook_replays') };
};

describe('a replay from its own cursor', () => {
  it('of 20,000 events writes one row, refuses a second (409) while it runs, and stops on DELETE .../replay', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const id = await quietWebhook(store, hook.url);
    const events = await manyEvents(store, 20_000);
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: true });

    const reply = await t.call(store, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    expect(reply.body.data).toEqual({ queued: 20_000 });
    const again = await t.call(store, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' });
    expectError(again, 409, 'REPLAY_IN_PROGRESS');

    await until(
      () => hook.ids.length,
      (n) => n >= 200,
    );
    // 200 and more delivered: one replay row, not one delivery row
    expect(await rowsOf(store)).toEqual({ deliveries: 0, replays: 1 });
    expect(hook.ids.slice(0, 200)).toEqual(events.slice(0, 200));

    const stopped = await t.call(store, 'DELETE', `/webhooks/${id}/replay`);
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(await rowsOf(store)).toEqual({ deliveries: 0, replays: 0 });
    // a batch in flight finishes (at most one claim's worth), then nothing more comes
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = hook.ids.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.ids.length).toBe(after);
    expect(after).toBeLessThan(20_000);
    expectError(await t.call(store, 'DELETE', `/webhooks/${id}/replay`), 404, 'NOT_FOUND');
    if (process.env.WEBHOOK_FIGURES) console.log(`replay of 20,000: ${after} sent, rows written: 1 replay, 0 deliveries`);
    await hook.close();
  }, 180_000);

  it('delivers every event of its range once, in feed order, with the event id as webhook-id', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const id = await quietWebhook(store, hook.url);
    const events = await manyEvents(store, 600);
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: true });
    const reply = await t.call(store, 'POST', `/webhooks/${id}/replay`, { after: events[99] });
    expect(reply.body.data).toEqual({ queued: 500 });
    await until(
      () => hook.ids.length,
      (n) => n >= 500,
      120_000,
    );
    expect(hook.ids).toEqual(events.slice(100));
    // done: the replay's row is gone, and a new replay may start
    await until(
      async () => (await rowsOf(store)).replays,
      (n) => n === 0,
    );
    expect(await rowsOf(store)).toEqual({ deliveries: 0, replays: 0 });
    expect((await t.call(store, 'POST', `/webhooks/${id}/replay`, { after: events[598] })).body.data).toEqual({ queued: 1 });
    await hook.close();
  }, 180_000);

  it('DELETE /webhooks/{id} succeeds while its replay runs, for every webhook of a store at once', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await quietWebhook(store, `${hook.url}/${i}`));
    await manyEvents(store, 5_000);
    for (const id of ids) {
      await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: true });
      expect((await t.call(store, 'POST', `/webhooks/${id}/replay`, { since: '2000-01-01T00:00:00Z' })).status).toBe(202);
    }
    await until(
      () => hook.ids.length,
      (n) => n >= 100,
    );
    const deleted = await Promise.all(ids.map((id) => t.call(store, 'DELETE', `/webhooks/${id}`)));
    expect(deleted.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect(await rowsOf(store)).toEqual({ deliveries: 0, replays: 0 });
    await hook.close();
  }, 180_000);
});
