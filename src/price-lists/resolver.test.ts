import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, postCreated, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const post = (store: TestStore, path: string, body: object) => postCreated(t, store, path, body);

async function setPrices(store: TestStore, listId: string, items: object[]) {
  const res = await t.call(store, 'PUT', `/price-lists/${listId}/prices`, { items });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A store with a simple product (10.00, compare 12.00) and a shirt in two sizes (20.00 each). */
async function shop() {
  const store = await t.newStore();
  const mug = await post(store, '/products', { title: 'Mug', price: 10, comparePrice: 12 });
  const shirt = await post(store, '/products', { title: 'Shirt', price: 20, options: [{ name: 'Size', values: ['S', 'M'] }] });
  return { store, mug, shirt, sizes: shirt.variants.map((variant: { id: string }) => variant.id) as string[] };
}

const prices = (store: TestStore, query: string) => t.call(store, 'GET', `/prices?${query}`);

describe('GET /prices and GET /products/{id}?currency= (CONTRACT §14)', () => {
  it('no list: the base price in the store currency, unavailable in another; every item, in the order asked', async () => {
    const { store, mug, shirt, sizes } = await shop();
    const base = await prices(store, `productIds=${shirt.id},${mug.id}`);
    expect(base.status).toBe(200);
    expect(base.body.data).toEqual([
      { productId: shirt.id, variantId: sizes[0], currency: 'USD', price: 20, comparePrice: null, priceListId: null, basis: 'base' },
      { productId: shirt.id, variantId: sizes[1], currency: 'USD', price: 20, comparePrice: null, priceListId: null, basis: 'base' },
      { productId: mug.id, variantId: null, currency: 'USD', price: 10, comparePrice: 12, priceListId: null, basis: 'base' },
    ]);
    const eur = await prices(store, `productIds=${mug.id}&currency=EUR`);
    expect(eur.body.data).toEqual([
      { productId: mug.id, variantId: null, currency: 'EUR', price: null, comparePrice: null, priceListId: null, basis: 'unavailable' },
    ]);
  });

  it('the lowest fixed price wins over adjustments; adjustments round half-up; ties go to the oldest list', async () => {
    const { store, mug, shirt, sizes } = await shop();
    const sale = await post(store, '/price-lists', {
      name: 'Sale',
      currency: 'USD',
      adjustment: { type: 'percentageDecrease', value: 15.5 },
    });
    const deeper = await post(store, '/price-lists', {
      name: 'Deeper',
      currency: 'USD',
      adjustment: { type: 'percentageDecrease', value: 15.5 },
    });
    const fixed = await post(store, '/price-lists', { name: 'Fixed', currency: 'USD' });
    await setPrices(store, fixed.id, [{ productId: shirt.id, variantId: sizes[0], price: 19.5 }]);
    const res = await prices(store, `productIds=${mug.id},${shirt.id}`);
    // 10.00 less 15.5% is 8.45; 12 less 15.5% is 10.14; 20 less 15.5% is 16.90
    expect(res.body.data).toEqual([
      { productId: mug.id, variantId: null, currency: 'USD', price: 8.45, comparePrice: 10.14, priceListId: sale.id, basis: 'adjustment' },
      { productId: shirt.id, variantId: sizes[0], currency: 'USD', price: 19.5, comparePrice: null, priceListId: fixed.id, basis: 'fixed' },
      {
        productId: shirt.id,
        variantId: sizes[1],
        currency: 'USD',
        price: 16.9,
        comparePrice: null,
        priceListId: sale.id,
        basis: 'adjustment',
      },
    ]);
    expect(deeper.id).not.toBe(sale.id);
  });

  it('only active lists, valid at `at`, of the currency, for the buyer’s tags', async () => {
    const { store, mug } = await shop();
    const vip = await post(store, '/customers', { userName: 'vip', password: 'long-secret-1', tags: ['VIP', ' vip ', 'B2B'] });
    expect(vip.tags).toEqual(['VIP', 'B2B']);
    const plain = await post(store, '/customers', { userName: 'plain', password: 'long-secret-1' });
    expect(plain.tags).toEqual([]);
    const everyone = await post(store, '/price-lists', { name: 'EU', currency: 'EUR' });
    const vips = await post(store, '/price-lists', { name: 'EU VIP', currency: 'EUR', customerTags: ['vip'] });
    const later = await post(store, '/price-lists', { name: 'EU 2027', currency: 'EUR', startsAt: '2027-01-01T00:00:00.000Z' });
    const draft = await post(store, '/price-lists', { name: 'EU draft', currency: 'EUR', status: 'draft' });
    await setPrices(store, everyone.id, [{ productId: mug.id, price: 9 }]);
    await setPrices(store, vips.id, [{ productId: mug.id, price: 7 }]);
    await setPrices(store, later.id, [{ productId: mug.id, price: 6 }]);
    await setPrices(store, draft.id, [{ productId: mug.id, price: 1 }]);
    const priceFor = async (query: string) => {
      const res = await prices(store, `productIds=${mug.id}&currency=EUR${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return [res.body.data[0].price, res.body.data[0].priceListId];
    };
    expect(await priceFor('')).toEqual([9, everyone.id]);
    expect(await priceFor(`&customerId=${plain.id}`)).toEqual([9, everyone.id]);
    expect(await priceFor(`&customerId=${vip.id}`)).toEqual([7, vips.id]);
    expect(await priceFor(`&customerId=${vip.id}&at=2027-02-01T00:00:00Z`)).toEqual([6, later.id]);
    const product = await t.call(store, 'GET', `/products/${mug.id}?currency=EUR&customerId=${vip.id}`);
    expect(product.status).toBe(200);
    expect(product.body.data.resolvedPrice).toEqual({
      productId: mug.id,
      variantId: null,
      currency: 'EUR',
      price: 7,
      comparePrice: null,
      priceListId: vips.id,
      basis: 'fixed',
    });
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.resolvedPrice).toBeUndefined();
  });

  it('GET /products/{id}?currency= puts resolvedPrice on each variant', async () => {
    const { store, shirt, sizes } = await shop();
    const list = await post(store, '/price-lists', { name: 'JP', currency: 'JPY' });
    await setPrices(store, list.id, [{ productId: shirt.id, variantId: sizes[1], price: 3000 }]);
    const res = await t.call(store, 'GET', `/products/${shirt.id}?currency=JPY`);
    expect(res.body.data.resolvedPrice).toBeUndefined();
    expect(res.body.data.variants.map((variant: { resolvedPrice: object }) => variant.resolvedPrice)).toEqual([
      {
        productId: shirt.id,
        variantId: sizes[0],
        currency: 'JPY',
        price: null,
        comparePrice: null,
        priceListId: null,
        basis: 'unavailable',
      },
      { productId: shirt.id, variantId: sizes[1], currency: 'JPY', price: 3000, comparePrice: null, priceListId: list.id, basis: 'fixed' },
    ]);
  });

  it('400 naming the query field: more than 250 products, an unknown product or customer, a bad currency', async () => {
    const { store, mug } = await shop();
    const many = Array.from({ length: 251 }, (_, i) => i.toString(16).padStart(24, '0')).join(',');
    const field = async (query: string) => expectError(await prices(store, query), 400, 'VALIDATION_ERROR').details[0];
    expect(await field(`productIds=${many}`)).toMatchObject({ field: 'productIds', in: 'query' });
    expect(await field(`productIds=${'f'.repeat(24)}`)).toMatchObject({ field: 'productIds', in: 'query' });
    expect(await field(`productIds=${mug.id}&customerId=${'f'.repeat(24)}`)).toMatchObject({ field: 'customerId', in: 'query' });
    expect(await field(`productIds=${mug.id}&currency=XYZ`)).toMatchObject({ field: 'currency', in: 'query' });
    const other = await t.newStore();
    expectError(await prices(other, `productIds=${mug.id}`), 400, 'VALIDATION_ERROR');
  });
});
