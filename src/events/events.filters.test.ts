import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf, settled } from '../../test/support/feed.fixtures.js';
import { ALL_SCOPES } from '../shared/index.js';
import { listRecentEvents } from './events.service.js';

/** The feed by record (GET /events `recordId`) and newest first (listRecentEvents, the console's Events screen). */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const { readOn, body } = feedOf(() => t);

type Fields = Record<string, unknown>;

/** Two products, each created then updated, and an attribute set between them: five events. */
async function seed(store: TestStore) {
  const a = await body(store, 'POST', '/products', { title: 'A' });
  const set = await body(store, 'POST', '/attribute-sets', { name: 'Set' });
  const b = await body(store, 'POST', '/products', { title: 'B' });
  await body(store, 'PATCH', `/products/${a.id}`, { title: 'A2' });
  await body(store, 'PATCH', `/products/${b.id}`, { title: 'B2' });
  await settled(t);
  return { a: a.id as string, b: b.id as string, set: set.id as string };
}

const recent = (store: TestStore, query: { types?: string; recordId?: string; cursor?: string; limit?: number }, scopes = ALL_SCOPES) =>
  listRecentEvents(t.database.db, { storeId: store.id, scopes }, { limit: 25, ...query });

describe('GET /events?recordId=', () => {
  it("keeps one record's events, oldest first, with types too; its cursor is bound to it", async () => {
    const store = await t.newStore();
    const { a } = await seed(store);
    const own = await readOn(store, `recordId=${a}`);
    expect(own.events.map((e) => [e.type, e.data.title])).toEqual([
      ['product.created', 'A'],
      ['product.updated', 'A2'],
    ]);
    expect((await readOn(store, `recordId=${a}&types=product.updated`)).events.map((e) => e.data.title)).toEqual(['A2']);
    // the cursor at its end reads what comes next for that record only
    await body(store, 'POST', '/products', { title: 'C' });
    await body(store, 'PATCH', `/products/${a}`, { title: 'A3' });
    expect((await readOn(store, `recordId=${a}`, own.cursor)).events.map((e) => e.data.title)).toEqual(['A3']);
    const field = async (url: string) => expectError(await t.call(store, 'GET', url), 400, 'VALIDATION_ERROR').details[0].field;
    expect(await field(`/events?cursor=${encodeURIComponent(own.cursor)}`)).toBe('cursor');
    expect(await field('/events?recordId=not-an-id')).toBe('recordId');
  });

  it("finds nothing of another store's record", async () => {
    const mine = await t.newStore();
    const other = await t.newStore();
    const { a } = await seed(other);
    expect((await readOn(mine, `recordId=${a}`)).events).toEqual([]);
  });
});

describe('the feed newest first (listRecentEvents)', () => {
  it('pages back by its cursor without repeats or gaps, filtered by type and by record', async () => {
    const store = await t.newStore();
    const { a, b } = await seed(store);
    const first = await recent(store, { limit: 2 });
    expect(first.data.map((e) => (e.data as Fields).title)).toEqual(['B2', 'A2']);
    const second = await recent(store, { limit: 2, cursor: first.nextCursor as string });
    expect(second.data.map((e) => (e.data as Fields).title ?? (e.data as Fields).name)).toEqual(['B', 'Set']);
    expect(second.liveCursor).toBeNull();
    const third = await recent(store, { limit: 2, cursor: second.nextCursor as string });
    expect(third.data.map((e) => (e.data as Fields).title)).toEqual(['A']);
    expect(third.nextCursor).toBeNull();

    expect((await recent(store, { types: 'product.created' })).data.map((e) => (e.data as Fields).title)).toEqual(['B', 'A']);
    expect((await recent(store, { recordId: b })).data.map((e) => (e.data as Fields).title)).toEqual(['B2', 'B']);
    expect((await recent(store, { recordId: a, types: 'product.created' })).data.map((e) => (e.data as Fields).title)).toEqual(['A']);
    // its cursor is its own: not one of GET /events, nor of another filter
    await expect(recent(store, { limit: 2, types: 'product.created', cursor: first.nextCursor as string })).rejects.toMatchObject({
      status: 400,
    });
    expectError(
      await t.call(store, 'GET', `/events?limit=2&cursor=${encodeURIComponent(first.nextCursor as string)}`),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('its liveCursor reads on with GET /events from the newest event shown (or the feed’s end when none matches)', async () => {
    const store = await t.newStore();
    const { a, set } = await seed(store);
    const page = await recent(store, { recordId: a, limit: 10 });
    const none = await recent(store, { types: 'attributeSet.updated', limit: 10 });
    expect(none.data).toEqual([]);
    await body(store, 'PATCH', `/products/${a}`, { title: 'A3' });
    await body(store, 'PATCH', `/attribute-sets/${set}`, { name: 'Set2' });
    const live = await readOn(store, `recordId=${a}&limit=10`, page.liveCursor as string);
    expect(live.events.map((e) => e.data.title)).toEqual(['A3']);
    const liveNone = await readOn(store, 'types=attributeSet.updated&limit=10', none.liveCursor as string);
    expect(liveNone.events.map((e) => e.data.name)).toEqual(['Set2']);
  });

  it('shows only the types the scopes may read, and 403 for a type they may not', async () => {
    const store = await t.newStore();
    await seed(store);
    const catalog = await recent(store, {}, ['products:read']);
    expect(new Set(catalog.data.map((e) => e.type))).toEqual(new Set(['product.created', 'product.updated']));
    await expect(recent(store, { types: 'customer.created' }, ['products:read'])).rejects.toMatchObject({ status: 403 });
  });
});

describe('storage', () => {
  it('both writers fill record_id (the event alone and the event sent with the COMMIT)', async () => {
    const store = await t.newStore();
    await seed(store);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM events WHERE store_id = ${store.id} AND record_id IS DISTINCT FROM data->>'id'`.execute(t.database.db);
    expect(rows[0].n).toBe(0);
  });

  it.skipIf(engine !== 'postgres')('a type or a record is a range of an index, read in feed order either way (no sort)', async () => {
    const store = await t.newStore();
    const { a } = await seed(store);
    const plan = async (where: string, order: 'ASC' | 'DESC') =>
      t.database.db.transaction().execute(async (trx) => {
        // the plan the indexes make possible, whatever a small table's statistics would prefer
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const { rows } = await sql<{
          'QUERY PLAN': string;
        }>`EXPLAIN SELECT id FROM events WHERE store_id = ${store.id} AND ${sql.raw(where)}
          ORDER BY xid ${sql.raw(order)}, seq ${sql.raw(order)} LIMIT 50`.execute(trx);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    for (const order of ['ASC', 'DESC'] as const) {
      const byType = await plan(`type = 'product.updated'`, order);
      expect(byType).toContain('events_type_idx');
      expect(byType).not.toContain('Sort');
      const byRecord = await plan(`record_id = '${a}'`, order);
      expect(byRecord).toContain('events_record_idx');
      expect(byRecord).not.toContain('Sort');
    }
  });
});
