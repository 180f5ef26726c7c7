import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { expectCountersExact } from '../../test/support/list-counts.fixtures.js';
import { newId } from '../shared/index.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const cartItems = [{ productId: 'p', title: 'T', price: 1, quantity: 1 }];
const money = { subTotal: 1, totalAmount: 1 };

async function total(store: TestStore, url: string): Promise<number> {
  const res = await t.call(store, 'GET', url);
  expect(res.status).toBe(200);
  return res.body.pagination.total;
}

async function created(store: TestStore, url: string, body: object): Promise<string> {
  const res = await t.call(store, 'POST', url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

const product = (store: TestStore, title: string, status = 'active') => created(store, '/products', { title, status });
const order = (store: TestStore, orderStatus: string, paymentStatus: string) =>
  created(store, '/orders', { cartItems, ...money, orderStatus, paymentStatus });

/** Adds `n` to one of the store's counters behind the service's back: shows which totals come from them. */
async function skewCounter(storeId: string, list: string, key1: string, key2: string, n: number) {
  await sql`INSERT INTO list_counts AS c (store_id, list, key1, key2, shard, n) VALUES (${storeId}, ${list}, ${key1}, ${key2}, 0, ${n})
    ON CONFLICT (store_id, list, key1, key2, shard) DO UPDATE SET n = c.n + excluded.n`.execute(t.database.db);
}

describe('list totals from the counters', () => {
  it('follow product creates, status changes and deletes', async () => {
    const store = await t.newStore();
    const ids = [];
    for (const [i, status] of ['active', 'active', 'active', 'disabled', 'disabled'].entries())
      ids.push(await product(store, `P ${i}`, status));
    expect([
      await total(store, '/products'),
      await total(store, '/products?status=active'),
      await total(store, '/products?status=disabled'),
    ]).toEqual([5, 3, 2]);
    expect((await t.call(store, 'PATCH', `/products/${ids[0]}`, { status: 'disabled' })).status).toBe(200);
    expect((await t.call(store, 'PATCH', `/products/${ids[1]}`, { price: 3 })).status).toBe(200);
    expect([
      await total(store, '/products'),
      await total(store, '/products?status=active'),
      await total(store, '/products?status=disabled'),
    ]).toEqual([5, 2, 3]);
    expect((await t.call(store, 'DELETE', `/products/${ids[3]}`)).status).toBe(200);
    expect((await t.call(store, 'GET', '/products?status=disabled&limit=1')).body.pagination).toEqual({
      page: 1,
      limit: 1,
      total: 2,
      totalPages: 2,
      nextCursor: expect.any(String),
    });
    expect(await total(store, '/products')).toBe(4);
    await expectCountersExact(t.database.db, store.id);
  });

  it('follow orders by status and by payment status, alone and together', async () => {
    const store = await t.newStore();
    const a = await order(store, 'pending', 'pending');
    await order(store, 'pending', 'paid');
    await order(store, 'fulfilled', 'paid');
    expect((await t.call(store, 'PATCH', `/orders/${a}`, { orderStatus: 'fulfilled', paymentStatus: 'paid' })).status).toBe(200);
    const expected: [string, number][] = [
      ['', 3],
      ['?status=fulfilled', 2],
      ['?status=pending', 1],
      ['?paymentStatus=paid', 3],
      ['?paymentStatus=pending', 0],
      ['?status=fulfilled&paymentStatus=paid', 2],
      ['?status=pending&paymentStatus=paid', 1],
      ['?status=nothing', 0],
    ];
    for (const [query, n] of expected) expect([query, await total(store, `/orders${query}`)]).toEqual([query, n]);
    await expectCountersExact(t.database.db, store.id);
  });

  it('come from the counters when every filter is a counter key, and from count(*) otherwise', async () => {
    const store = await t.newStore();
    await product(store, 'Red shirt');
    await product(store, 'Blue shirt');
    const customer = await created(store, '/customers', { userName: 'buyer', password: 'long-enough-password' });
    await created(store, '/orders', { cartItems, ...money, userId: customer });
    await skewCounter(store.id, 'products', 'active', '', 10);
    await skewCounter(store.id, 'orders', 'pending', 'pending', 10);
    await skewCounter(store.id, 'customers', '', '', 10);
    try {
      expect(await total(store, '/products')).toBe(12);
      expect(await total(store, '/products?status=active')).toBe(12);
      expect(await total(store, '/products?search=red')).toBe(1);
      expect(await total(store, '/products?handle=red-shirt')).toBe(1);
      expect(await total(store, '/products?status=active&search=shirt')).toBe(2);
      expect(await total(store, '/orders?status=pending')).toBe(11);
      expect(await total(store, `/orders?userId=${customer}`)).toBe(1);
      expect(await total(store, '/customers')).toBe(11);
      expect(await total(store, '/customers?search=buyer')).toBe(1);
    } finally {
      await skewCounter(store.id, 'products', 'active', '', -10);
      await skewCounter(store.id, 'orders', 'pending', 'pending', -10);
      await skewCounter(store.id, 'customers', '', '', -10);
    }
    await expectCountersExact(t.database.db, store.id);
  });

  it('count every one of 20 concurrent creates in one store', async () => {
    const store = await t.newStore();
    await Promise.all(Array.from({ length: 20 }, (_, i) => product(store, `Concurrent ${i}`)));
    await Promise.all(Array.from({ length: 20 }, () => order(store, 'pending', 'paid')));
    expect(await total(store, '/products')).toBe(20);
    expect(await total(store, '/orders')).toBe(20);
    expect(await total(store, '/orders?paymentStatus=paid')).toBe(20);
    await expectCountersExact(t.database.db, store.id);
  });

  it('are per store', async () => {
    const [one, two] = [await t.newStore(), await t.newStore()];
    const id = await product(one, 'Only in one');
    await product(two, 'In two', 'disabled');
    await created(one, '/attribute-sets', { name: 'Apparel' });
    expect([await total(one, '/products'), await total(one, '/products?status=disabled'), await total(one, '/attribute-sets')]).toEqual([
      1, 0, 1,
    ]);
    expect([await total(two, '/products'), await total(two, '/products?status=active'), await total(two, '/attribute-sets')]).toEqual([
      1, 0, 0,
    ]);
    expect((await t.call(one, 'DELETE', `/products/${id}`)).status).toBe(200);
    expect([await total(one, '/products'), await total(two, '/products')]).toEqual([0, 1]);
  });

  it('stay unchanged when the writing transaction rolls back', async () => {
    const store = await t.newStore();
    await product(store, 'Kept');
    const failing = t.database.db.transaction().execute(async (trx) => {
      const now = new Date();
      await trx
        .insertInto('customers')
        .values({ store_id: store.id, id: newId(), user_name: 'ghost', password_hash: 'x', created_at: now, updated_at: now })
        .execute();
      await trx.deleteFrom('products').where('store_id', '=', store.id).execute();
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    expect([await total(store, '/products'), await total(store, '/customers')]).toEqual([1, 0]);
    await expectCountersExact(t.database.db, store.id);
  });
});
