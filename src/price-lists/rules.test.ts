import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, postCreated, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { updateStore } from '../stores/index.js';

/**
 * The rules of CONTRACT §14 that price-lists.test.ts and resolver.test.ts leave to the resolver's unit test,
 * here through the API on both engines: a list's window at its edges, a tie of fixed prices, rounding half-up to
 * each currency's minor unit, the 1..1,000 items of a write, and a deleted list's prices.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const post = (store: TestStore, path: string, body: object) => postCreated(t, store, path, body);

const put = (store: TestStore, listId: string, items: object[]) => t.call(store, 'PUT', `/price-lists/${listId}/prices`, { items });

/** The resolved [price, comparePrice, priceListId, basis] of a simple product. */
async function resolved(store: TestStore, productId: string, query = '') {
  const res = await t.call(store, 'GET', `/prices?productIds=${productId}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [{ price, comparePrice, priceListId, basis }] = res.body.data;
  return [price, comparePrice, priceListId, basis];
}

/** [store currency, base price, compare price, adjustment, the price it resolves to, the compare price] */
type RoundingCase = [string, number, number | null, { type: string; value: number }, number, number | null];
const ROUNDING: RoundingCase[] = [
  ['USD', 10.01, 20.01, { type: 'percentageDecrease', value: 50 }, 5.01, 10.01], // 5.005 → 5.01, 10.005 → 10.01
  ['USD', 10.05, null, { type: 'percentageIncrease', value: 10 }, 11.06, null], // 11.055 → 11.06
  ['EUR', 0.05, null, { type: 'percentageDecrease', value: 90 }, 0.01, null], // 0.005 → 0.01
  ['JPY', 1001, 2001, { type: 'percentageDecrease', value: 50 }, 501, 1001], // 500.5 → 501, 1000.5 → 1001
  ['JPY', 999, null, { type: 'percentageIncrease', value: 0.05 }, 999, null], // 999.4995 → 999
  ['KWD', 1.001, null, { type: 'percentageDecrease', value: 50 }, 0.501, null], // 0.5005 → 0.501
];

describe('CONTRACT §14, rule by rule', () => {
  it('a list applies from startsAt (included) until endsAt (excluded)', async () => {
    const store = await t.newStore();
    const mug = await post(store, '/products', { title: 'Mug', price: 10 });
    const window = { startsAt: '2026-12-01T00:00:00.000Z', endsAt: '2027-01-01T00:00:00.000Z' };
    const december = await post(store, '/price-lists', { name: 'December', currency: 'EUR', ...window });
    expect((await put(store, december.id, [{ productId: mug.id, price: 8 }])).status).toBe(200);
    const at = async (instant: string) => (await resolved(store, mug.id, `&currency=EUR&at=${instant}`)).slice(2);
    expect(await at('2026-11-30T23:59:59.999Z')).toEqual([null, 'unavailable']);
    expect(await at(window.startsAt)).toEqual([december.id, 'fixed']);
    expect(await at('2026-12-31T23:59:59.999Z')).toEqual([december.id, 'fixed']);
    expect(await at(window.endsAt)).toEqual([null, 'unavailable']);
  });

  it('equal fixed prices go to the list created first; a lower one wins whatever its age', async () => {
    const store = await t.newStore();
    const mug = await post(store, '/products', { title: 'Mug', price: 10 });
    const first = await post(store, '/price-lists', { name: 'First', currency: 'EUR' });
    const second = await post(store, '/price-lists', { name: 'Second', currency: 'EUR' });
    await put(store, second.id, [{ productId: mug.id, price: 7.5, comparePrice: 9 }]);
    await put(store, first.id, [{ productId: mug.id, price: 7.5 }]);
    expect(await resolved(store, mug.id, '&currency=EUR')).toEqual([7.5, null, first.id, 'fixed']);
    await put(store, second.id, [{ productId: mug.id, price: 7.49 }]);
    expect(await resolved(store, mug.id, '&currency=EUR')).toEqual([7.49, null, second.id, 'fixed']);
  });

  it.each(
    ROUNDING,
  )('in %s, %s (compare %s) adjusted by %o rounds half-up to %s (compare %s)', async (currency, price, comparePrice, adjustment, want, wantCompare) => {
    const store = await t.newStore();
    await updateStore(t.database.db, store.slug, { currency });
    const item = await post(store, '/products', { title: 'Item', price, ...(comparePrice === null ? {} : { comparePrice }) });
    const list = await post(store, '/price-lists', { name: 'Adjusted', currency, adjustment });
    expect(await resolved(store, item.id)).toEqual([want, wantCompare, list.id, 'adjustment']);
  });

  it("a fixed price or compare price with more decimals than the list's currency is a 400 naming it", async () => {
    const store = await t.newStore();
    const mug = await post(store, '/products', { title: 'Mug', price: 10 });
    const cases: [string, object, string][] = [
      ['JPY', { price: 1000, comparePrice: 1200.5 }, 'items[0].comparePrice'],
      ['EUR', { price: 10, comparePrice: 12.345 }, 'items[0].comparePrice'],
      ['KWD', { price: 1.0001 }, 'items[0].price'],
    ];
    for (const [currency, amounts, field] of cases) {
      const list = await post(store, '/price-lists', { name: currency, currency });
      const refused = expectError(await put(store, list.id, [{ productId: mug.id, ...amounts }]), 400, 'VALIDATION_ERROR');
      expect(
        refused.details.map((detail: { field: string }) => detail.field),
        currency,
      ).toEqual([field]);
      expect(refused.details[0].message, currency).toContain(currency);
    }
    const kwd = await post(store, '/price-lists', { name: 'KWD ok', currency: 'KWD' });
    expect((await put(store, kwd.id, [{ productId: mug.id, price: 1.001, comparePrice: 1.002 }])).body.data[0]).toMatchObject({
      price: 1.001,
      comparePrice: 1.002,
    });
  });

  it('a write takes 1 to 1,000 items', async () => {
    const store = await t.newStore();
    const mug = await post(store, '/products', { title: 'Mug', price: 10 });
    const list = await post(store, '/price-lists', { name: 'EU', currency: 'EUR' });
    expectError(await put(store, list.id, []), 400, 'VALIDATION_ERROR');
    const many = Array.from({ length: 1001 }, () => ({ productId: mug.id, price: 1 }));
    expect(expectError(await put(store, list.id, many), 400, 'VALIDATION_ERROR').details[0].field).toMatch(/^items/);
    const remove = (items: object[]) => t.call(store, 'POST', `/price-lists/${list.id}/prices/delete`, { items });
    expectError(await remove([]), 400, 'VALIDATION_ERROR');
    expectError(await remove(many.map(({ productId }) => ({ productId }))), 400, 'VALIDATION_ERROR');
    expect((await t.call(store, 'GET', `/price-lists/${list.id}/prices`)).body.data).toEqual([]);
  });

  it("a deleted list's fixed prices are gone with it: the item resolves as if it never had them", async () => {
    const store = await t.newStore();
    const mug = await post(store, '/products', { title: 'Mug', price: 10 });
    const list = await post(store, '/price-lists', { name: 'US', currency: 'USD' });
    await put(store, list.id, [{ productId: mug.id, price: 6 }]);
    expect(await resolved(store, mug.id)).toEqual([6, null, list.id, 'fixed']);
    expect((await t.call(store, 'DELETE', `/price-lists/${list.id}`)).status).toBe(200);
    expect(await resolved(store, mug.id)).toEqual([10, null, null, 'base']);
    const again = await post(store, '/price-lists', { name: 'US', currency: 'USD' });
    expect((await t.call(store, 'GET', `/price-lists/${again.id}/prices`)).body.data).toEqual([]);
  });
});
