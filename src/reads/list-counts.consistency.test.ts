import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { countedTotals, counterTotals, expectCountersExact } from '../../test/support/list-counts.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const cartItems = [{ productId: 'p', title: 'T', price: 1, quantity: 1 }];
const money = { subTotal: 1, totalAmount: 1 };
const orderStatus = fc.constantFrom('pending', 'shipped', 'fulfilled');
const paymentStatus = fc.constantFrom('pending', 'paid');
const productStatus = fc.constantFrom('active', 'disabled');
const pick = fc.nat(50);

/** One write through the API; `pick` chooses among the records created so far (nothing when there are none). */
const operation = fc.oneof(
  fc.record({ op: fc.constant('createProduct' as const), status: productStatus }),
  fc.record({ op: fc.constant('setProductStatus' as const), pick, status: productStatus }),
  fc.record({ op: fc.constant('patchProductPrice' as const), pick }),
  fc.record({ op: fc.constant('deleteProduct' as const), pick }),
  fc.record({ op: fc.constant('createOrder' as const), orderStatus, paymentStatus }),
  fc.record({ op: fc.constant('patchOrder' as const), pick, orderStatus: fc.option(orderStatus), paymentStatus: fc.option(paymentStatus) }),
  fc.record({ op: fc.constant('createSet' as const), status: fc.constantFrom('active', 'inactive') }),
  fc.record({ op: fc.constant('deleteSet' as const), pick }),
  fc.record({ op: fc.constant('createCollection' as const) }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

interface Made {
  products: string[];
  orders: string[];
  sets: string[];
  serial: number;
}

const chosen = (ids: string[], index: number) => (ids.length ? ids[index % ids.length] : undefined);

async function apply(store: TestStore, made: Made, step: Operation): Promise<void> {
  const call = async (method: string, url: string, body?: object) => {
    const res = await t.call(store, method, url, body);
    expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };
  made.serial += 1;
  if (step.op === 'createProduct')
    made.products.push((await call('POST', '/products', { title: `P ${made.serial}`, status: step.status })).id);
  if (step.op === 'createOrder') made.orders.push((await call('POST', '/orders', { cartItems, ...money, ...step, op: undefined })).id);
  if (step.op === 'createSet')
    made.sets.push((await call('POST', '/attribute-sets', { name: `S ${made.serial}`, status: step.status })).id);
  if (step.op === 'createCollection') await call('POST', '/collections', { title: `C ${made.serial}` });
  if (step.op === 'createProduct' || step.op === 'createOrder' || step.op === 'createSet' || step.op === 'createCollection') return;
  const list = step.op === 'patchOrder' ? made.orders : step.op === 'deleteSet' ? made.sets : made.products;
  const id = chosen(list, step.pick);
  if (!id) return;
  if (step.op === 'setProductStatus') await call('PATCH', `/products/${id}`, { status: step.status });
  if (step.op === 'patchProductPrice') await call('PATCH', `/products/${id}`, { price: made.serial });
  if (step.op === 'patchOrder')
    await call('PATCH', `/orders/${id}`, {
      orderStatus: step.orderStatus ?? (step.paymentStatus ? undefined : 'pending'),
      paymentStatus: step.paymentStatus ?? undefined,
    });
  if (step.op === 'deleteProduct' || step.op === 'deleteSet') {
    await call('DELETE', `/${step.op === 'deleteProduct' ? 'products' : 'attribute-sets'}/${id}`);
    list.splice(list.indexOf(id), 1);
  }
}

/** Every filter shape the counters answer, through the API, against count(*) of the table. */
async function expectApiTotalsExact(store: TestStore): Promise<void> {
  const counts = await countedTotals(t.database.db, store.id);
  const sum = (list: string, key1?: string, key2?: string) =>
    counts
      .filter((c) => c.list === list && (key1 === undefined || c.key1 === key1) && (key2 === undefined || c.key2 === key2))
      .reduce((n, c) => n + c.n, 0);
  const totals = async (url: string) => (await t.call(store, 'GET', url)).body.pagination.total;
  for (const status of [undefined, 'active', 'disabled'])
    expect(await totals(`/products${status ? `?status=${status}` : ''}`)).toBe(sum('products', status));
  for (const s of [undefined, 'pending', 'fulfilled'])
    for (const p of [undefined, 'paid']) {
      const query = new URLSearchParams({ ...(s ? { status: s } : {}), ...(p ? { paymentStatus: p } : {}) });
      expect(await totals(`/orders?${query}`)).toBe(sum('orders', s, p));
    }
  expect(await totals('/attribute-sets?status=inactive')).toBe(sum('attribute_sets', 'inactive'));
  expect(await totals('/collections')).toBe(sum('collections'));
}

describe('list counters against count(*)', () => {
  it('agree after any sequence of creates, updates and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), async (steps) => {
        const store = await t.newStore();
        const made: Made = { products: [], orders: [], sets: [], serial: 0 };
        for (const step of steps) await apply(store, made, step);
        await expectCountersExact(t.database.db, store.id);
        await expectApiTotalsExact(store);
      }),
      { numRuns: 6 },
    );
  });

  it('leave nothing behind when a store is deleted, and other stores untouched', async () => {
    const [gone, kept] = [await t.newStore(), await t.newStore()];
    for (const store of [gone, kept]) {
      for (const title of ['A', 'B']) expect((await t.call(store, 'POST', '/products', { title })).status).toBe(201);
      expect((await t.call(store, 'POST', '/orders', { cartItems, ...money })).status).toBe(201);
      expect((await t.call(store, 'POST', '/attribute-sets', { name: 'Set' })).status).toBe(201);
    }
    const before = await counterTotals(t.database.db, kept.id);
    await sql`DELETE FROM stores WHERE id = ${gone.id}`.execute(t.database.db);
    expect(await counterTotals(t.database.db, gone.id)).toEqual([]);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM list_counts WHERE store_id = ${gone.id}`.execute(
      t.database.db,
    );
    expect(rows[0].n).toBe(0);
    expect(await counterTotals(t.database.db, kept.id)).toEqual(before);
    await expectCountersExact(t.database.db, kept.id);
  });

  it('are backfilled by the migration for rows that existed before it', async () => {
    const store = await t.newStore();
    for (const title of ['A', 'B', 'C'])
      expect((await t.call(store, 'POST', '/products', { title, status: title === 'C' ? 'disabled' : 'active' })).status).toBe(201);
    expect((await t.call(store, 'POST', '/orders', { cartItems, ...money, orderStatus: 'x', paymentStatus: 'y' })).status).toBe(201);
    const migration = readFileSync(new URL('../../migrations/0007_list_counts.sql', import.meta.url), 'utf8');
    const tables = ['products', 'orders', 'attribute_sets', 'customers', 'collections', 'attributes'];
    // Undo the migration and run it again over the existing rows, in one transaction rolled back at the end.
    // PostgreSQL runs other test files on the same database: the tables are locked first, in the order
    // their writers take them (table, then its counters), so they wait instead of deadlocking.
    const replayed = t.database.db.transaction().execute(async (trx) => {
      await sql.raw(`LOCK TABLE ${tables.join(', ')}, list_counts IN ACCESS EXCLUSIVE MODE`).execute(trx);
      await sql
        .raw(`DROP TABLE list_counts; ${tables.map((table) => `DROP FUNCTION list_counts_${table}() CASCADE;`).join(' ')}`)
        .execute(trx);
      await sql.raw(migration).execute(trx);
      expect(await counterTotals(trx, store.id)).toEqual(await countedTotals(trx, store.id));
      expect((await counterTotals(trx, store.id)).find((c) => c.list === 'products' && c.key1 === 'active')?.n).toBe(2);
      throw new Error('replayed');
    });
    await expect(replayed).rejects.toThrow('replayed');
  });
});
