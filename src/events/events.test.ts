import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type FeedEvent, feedOf, settled } from '../../test/support/feed.fixtures.js';
import { inlineDocument } from '../../test/support/openapi.js';
import { withTx } from '../db/index.js';
import { purgeOldEvents } from './purge.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const { readOn, eventsOf, body } = feedOf(() => t);

/** Asserts one write's event: its type, and data equal to what GET returns (or returned, for a delete). */
async function expectEvent(store: TestStore, type: string, write: () => Promise<unknown>, expected: () => Promise<unknown>) {
  const events = await eventsOf(store, write);
  expect(events.map((e) => e.type)).toEqual([type]);
  expect(events[0].data).toEqual(await expected());
  expect(events[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(events[0].id).toMatch(/^[0-9a-f]{24}$/);
}

/**
 * Deletes whose routes have no `current` loader yet: their event's data is the delete's answer, `{id}`,
 * instead of the record as it was. A route that gets its loader must leave this list (the test says so).
 */
const PENDING_DELETE_DATA = new Set<string>();

async function expectDeleteEvent(store: TestStore, type: string, write: () => Promise<unknown>, before: { id: string }) {
  if (!PENDING_DELETE_DATA.has(type)) return expectEvent(store, type, write, async () => before);
  const events = await eventsOf(store, write);
  expect(events.map((e) => e.type)).toEqual([type]);
  expect(events[0].data, `${type} carries the record now: remove it from PENDING_DELETE_DATA`).toEqual({ id: before.id });
}

/** create → updated → deleted of one resource, each event's data checked against GET. */
async function lifecycle(store: TestStore, kind: string, url: string, create: object, update: object) {
  let id = '';
  const get = () => body(store, 'GET', `${url}/${id}`);
  await expectEvent(store, `${kind}.created`, async () => (id = (await body(store, 'POST', url, create)).id), get);
  await expectEvent(store, `${kind}.updated`, () => body(store, 'PATCH', `${url}/${id}`, update), get);
  const before = await get();
  await expectDeleteEvent(store, `${kind}.deleted`, () => body(store, 'DELETE', `${url}/${id}`), before);
}

describe('every write appends its event, data as GET returns the record', () => {
  it('attribute sets and attributes', async () => {
    const store = await t.newStore();
    await lifecycle(store, 'attributeSet', '/attribute-sets', { name: 'Apparel' }, { status: 'inactive' });
    await lifecycle(store, 'attribute', '/attributes', { name: 'Material', values: ['Cotton'] }, { values: ['Cotton', 'Wool'] });
  });

  it('collections', async () => {
    const store = await t.newStore();
    await lifecycle(store, 'collection', '/collections', { title: 'Summer' }, { title: 'Winter' });
  });

  it('products, and a variant change is product.updated with the product', async () => {
    const store = await t.newStore();
    const product = await body(store, 'POST', '/products', { title: 'Tee', price: 10, options: [{ name: 'Size', values: ['S'] }] });
    const variant = product.variants[0].id;
    await expectEvent(
      store,
      'product.updated',
      () => body(store, 'PATCH', `/products/${product.id}/variants/${variant}`, { price: 12 }),
      () => body(store, 'GET', `/products/${product.id}`),
    );
    await lifecycle(store, 'product', '/products', { title: 'Cap', price: 5 }, { price: 6 });
  });

  it('customers, addresses and orders', async () => {
    const store = await t.newStore();
    let customer = '';
    await expectEvent(
      store,
      'customer.created',
      async () => (customer = (await body(store, 'POST', '/customers', { userName: 'ada', password: 'long-secret-1' })).id),
      () => body(store, 'GET', `/customers/${customer}`),
    );
    await expectEvent(
      store,
      'customer.updated',
      () => body(store, 'PATCH', `/customers/${customer}`, { firstName: 'Ada' }),
      () => body(store, 'GET', `/customers/${customer}`),
    );
    let address = '';
    const getAddress = () => body(store, 'GET', `/addresses/${address}`);
    await expectEvent(
      store,
      'address.created',
      async () => (address = (await body(store, 'POST', `/customers/${customer}/addresses`, { city: 'Paris' })).id),
      getAddress,
    );
    await expectEvent(store, 'address.updated', () => body(store, 'PATCH', `/addresses/${address}`, { city: 'Lyon' }), getAddress);
    await expectDeleteEvent(store, 'address.deleted', () => t.call(store, 'DELETE', `/addresses/${address}`), await getAddress());

    let order = '';
    const getOrder = () => body(store, 'GET', `/orders/${order}`);
    const cart = { cartItems: [{ productId: 'p1', title: 'Tee', price: 10, quantity: 1 }], subTotal: 10, totalAmount: 10 };
    await expectEvent(store, 'order.created', async () => (order = (await body(store, 'POST', '/orders', cart)).id), getOrder);
    await expectEvent(store, 'order.updated', () => body(store, 'PATCH', `/orders/${order}`, { orderStatus: 'fulfilled' }), getOrder);
    await expectDeleteEvent(store, 'order.deleted', () => t.call(store, 'DELETE', `/orders/${order}`), await getOrder());
    const lastCustomer = await body(store, 'GET', `/customers/${customer}`);
    await expectDeleteEvent(store, 'customer.deleted', () => t.call(store, 'DELETE', `/customers/${customer}`), lastCustomer);
  });

  it('API keys are not records of the store: no event', async () => {
    const store = await t.newStore();
    const events = await eventsOf(store, () => body(store, 'POST', '/api-keys', { name: 'k', scopes: ['*'] }));
    expect(events).toEqual([]);
  });
});

describe('only committed changes, each once', () => {
  it('a write that fails appends nothing', async () => {
    const store = await t.newStore();
    await body(store, 'POST', '/products', { title: 'Tee', handle: 'tee' });
    const events = await eventsOf(store, async () => {
      expectError(await t.call(store, 'POST', '/products', { title: 'Other', handle: 'tee' }), 400, 'DUPLICATE_VALUE');
      expectError(await t.call(store, 'PATCH', '/products/000000000000000000000000', { title: 'X' }), 404, 'NOT_FOUND');
    });
    expect(events).toEqual([]);
  });

  it.each([false, true])('a transaction rolled back after appending leaves no event (held for the commit: %s)', async (last) => {
    const store = await t.newStore();
    const events = await eventsOf(store, () =>
      withTx(t.database.db, async (trx) => {
        await t.afterWork.append(trx, store.id, { type: 'product.created', data: { id: 'x' } }, { last });
        throw new Error('rolled back');
      }).catch(() => undefined),
    );
    expect(events).toEqual([]);
  });

  it('an event INSERT that fails when it is sent with the COMMIT fails the write, and nothing of it stays', async () => {
    const store = await t.newStore();
    const db = t.database.db;
    await sql`CREATE FUNCTION test_refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.data->>'title' = 'boom' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`.execute(db);
    await sql`CREATE TRIGGER test_refuse_boom BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_refuse_boom()`.execute(db);
    try {
      expect((await t.call(store, 'POST', '/products', { title: 'boom' })).status).toBe(500);
      expect((await t.call(store, 'GET', '/products')).body.data).toEqual([]);
      expect((await t.call(store, 'POST', '/products', { title: 'fine' })).status).toBe(201);
    } finally {
      await sql`DROP TRIGGER test_refuse_boom ON events`.execute(db);
      await sql`DROP FUNCTION test_refuse_boom()`.execute(db);
    }
  });

  it("a record's quotes, backslashes and other characters reach its event unchanged", async () => {
    const store = await t.newStore();
    const title = `It's a \\ back\\slash, "quoted", $$dollars$$ — ünï 🎉 E'x'`;
    const events = await eventsOf(store, () => body(store, 'POST', '/products', { title, description: 'line\none\\n' }));
    expect(events[0].data).toMatchObject({ title, description: 'line\none\\n' });
  });

  it('an idempotent replay appends nothing', async () => {
    const store = await t.newStore();
    const headers = { 'idempotency-key': 'create-tee-1' };
    const events = await eventsOf(store, async () => {
      expect((await t.call(store, 'POST', '/products', { title: 'Tee' }, headers)).status).toBe(201);
      const again = await t.call(store, 'POST', '/products', { title: 'Tee' }, headers);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });
    expect(events.map((e) => e.type)).toEqual(['product.created']);
  });

  it('a stale If-Match appends nothing', async () => {
    const store = await t.newStore();
    const product = await body(store, 'POST', '/products', { title: 'Tee' });
    const events = await eventsOf(store, async () => {
      expect((await t.call(store, 'DELETE', `/products/${product.id}`, undefined, { 'if-match': '"stale"' })).status).toBe(412);
    });
    expect(events).toEqual([]);
  });
});

describe('GET /events', () => {
  it('oldest first; types filters; after= starts after that event; nextCursor at the end polls what comes next', async () => {
    const store = await t.newStore();
    const set = await body(store, 'POST', '/attribute-sets', { name: 'A' });
    await body(store, 'POST', '/products', { title: 'P' });
    await body(store, 'PATCH', `/attribute-sets/${set.id}`, { name: 'B' });
    const all = await readOn(store);
    expect(all.events.map((e) => e.type)).toEqual(['attributeSet.created', 'product.created', 'attributeSet.updated']);

    const sets = await readOn(store, 'types=attributeSet.updated,attributeSet.created');
    expect(sets.events.map((e) => e.type)).toEqual(['attributeSet.created', 'attributeSet.updated']);

    const after = await readOn(store, `after=${all.events[0].id}`);
    expect(after.events.map((e) => e.id)).toEqual(all.events.slice(1).map((e) => e.id));

    const polled = await readOn(store, '', all.cursor);
    expect(polled.events).toEqual([]);
    await body(store, 'POST', '/products', { title: 'Q' });
    const next = await readOn(store, '', polled.cursor);
    expect(next.events.map((e) => e.type)).toEqual(['product.created']);
  });

  it('pages of `limit` follow each other without repeats or gaps', async () => {
    const store = await t.newStore();
    for (let i = 0; i < 7; i++) await body(store, 'POST', '/attribute-sets', { name: `S${i}` });
    await settled(t);
    const first = await t.call(store, 'GET', '/events?limit=3');
    expect(first.body.data).toHaveLength(3);
    expect(first.body.pagination).toMatchObject({ limit: 3, hasMore: true });
    const rest = await readOn(store, 'limit=3', first.body.pagination.nextCursor);
    const names = [...first.body.data, ...rest.events].map((e: FeedEvent) => e.data.name);
    expect(names).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
  });

  it('a cursor is bound to its types and limit; bad parameters are 400 naming them', async () => {
    const store = await t.newStore();
    await body(store, 'POST', '/attribute-sets', { name: 'A' });
    const cursor = encodeURIComponent(
      (await t.call(store, 'GET', '/events?types=attributeSet.created&limit=5')).body.pagination.nextCursor,
    );
    // the same set of types in another spelling is the same walk
    expect((await t.call(store, 'GET', `/events?types=attributeSet.created,attributeSet.created&limit=5&cursor=${cursor}`)).status).toBe(
      200,
    );
    const field = async (url: string) => expectError(await t.call(store, 'GET', url), 400, 'VALIDATION_ERROR').details[0].field;
    expect(await field(`/events?limit=5&cursor=${cursor}`)).toBe('cursor');
    expect(await field(`/events?types=attributeSet.created&limit=6&cursor=${cursor}`)).toBe('cursor');
    expect(await field('/events?cursor=garbage')).toBe('cursor');
    expect(await field(`/events?types=attributeSet.created&limit=5&cursor=${cursor}&after=000000000000000000000000`)).toBe('after');
    expect(await field('/events?after=000000000000000000000000')).toBe('after');
    expect(await field('/events?types=product.exploded')).toBe('types');
    expect(await field('/events?limit=0')).toBe('limit');
  });

  it("a store sees only its own events, and cannot start after another store's", async () => {
    const mine = await t.newStore();
    const other = await t.newStore();
    await body(other, 'POST', '/products', { title: 'Theirs' });
    await body(mine, 'POST', '/products', { title: 'Mine' });
    const { events } = await readOn(mine);
    expect(events.map((e) => e.data.title)).toEqual(['Mine']);
    const theirs = (await readOn(other)).events[0].id;
    expectError(await t.call(mine, 'GET', `/events?after=${theirs}`), 400, 'VALIDATION_ERROR');
  });

  it('needs events:read', async () => {
    const store = await t.newStore();
    const without = (await body(store, 'POST', '/api-keys', { name: 'p', scopes: ['products:read'] })).key;
    const withIt = (await body(store, 'POST', '/api-keys', { name: 'e', scopes: ['events:read'] })).key;
    expectError(await t.call(without, 'GET', '/events'), 403, 'FORBIDDEN');
    expect((await t.call(withIt, 'GET', '/events')).status).toBe(200);
  });

  it('is in the OpenAPI document', async () => {
    const doc = inlineDocument((await t.call(null, 'GET', '/openapi.json')).body);
    const operation = doc.paths['/api/v1/events'].get;
    const query = operation.parameters.filter((p: { in: string }) => p.in === 'query');
    expect(query.map((p: { name: string }) => p.name).sort()).toEqual(['after', 'cursor', 'limit', 'recordId', 'types', 'wait']);
  });
});

describe('retention', () => {
  it('the purge deletes events older than the retention, and only those', async () => {
    const store = await t.newStore();
    await body(store, 'POST', '/products', { title: 'Old' });
    await body(store, 'POST', '/products', { title: 'New' });
    const [old] = (await readOn(store)).events;
    await sql`UPDATE events SET created_at = now() - interval '31 days' WHERE store_id = ${store.id} AND id = ${old.id}`.execute(
      t.database.db,
    );
    expect(await purgeOldEvents(t.database.db, 30)).toBeGreaterThanOrEqual(1);
    expect((await readOn(store)).events.map((e) => e.data.title)).toEqual(['New']);
  });
});

describe('storage', () => {
  it('ANALYZE samples the tables of whole records (feed, deliveries, product documents) with statistics target 10: 3,000 rows, not 30,000', async () => {
    const { rows } = await sql<{ table: string; column: string; target: number }>`
      SELECT c.relname AS table, a.attname AS column, a.attstattarget::int AS target
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relname IN ('events', 'webhook_deliveries', 'product_documents') AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`.execute(
      t.database.db,
    );
    expect(rows.length).toBeGreaterThanOrEqual(25);
    // A column added to either table later must be given the same target, or it alone sets the sample size.
    expect(rows.filter((row) => row.target !== 10)).toEqual([]);
  });

  it('an appended event runs no trigger: no foreign-key check per row (migration 0023), no webhook fan-out (0030)', async () => {
    const { rows } = await sql<{ name: string }>`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'events'::regclass`.execute(
      t.database.db,
    );
    expect(rows.map((row) => row.name)).toEqual([]);
  });

  it("an event's data and a product's stored document are compressed with lz4 where the server has it (pglz otherwise)", async () => {
    const db = t.database.db;
    const { rows } = await sql<{ lz4: boolean; method: string }>`
      SELECT 'lz4' = ANY (s.enumvals) AS lz4, a.attcompression::text AS method
      FROM pg_settings s, pg_attribute a
      WHERE s.name = 'default_toast_compression'
        AND (a.attrelid, a.attname) IN (('events'::regclass, 'data'), ('product_documents'::regclass, 'body'))`.execute(db);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.method).toBe(row.lz4 ? 'l' : '');
  });
});
