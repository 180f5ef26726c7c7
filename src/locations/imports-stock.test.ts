import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { importLines } from '../../test/support/product-imports.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe('stock written by imports (CONTRACT §13)', () => {
  it('sets the default location’s level, batch and per line; with stock elsewhere the line fails with MULTI_LOCATION_STOCK', async () => {
    const store = await t.newStore();
    const home = (await t.call(store, 'GET', '/locations')).body.data[0].id;
    const shop = (await t.call(store, 'POST', '/locations', { name: 'Shop' })).body.data.id;
    const lines = [
      { title: 'Mug', handle: 'mug', sku: 'MUG', totalStock: 4 },
      { title: 'Tee', handle: 'tee', options: [{ name: 'Size', values: ['S', 'M'] }], variants: [{ attributes: { Size: 'S' }, stock: 6 }] },
    ];
    const first = await importLines(t, store, lines);
    expect(first.errors).toEqual([]);
    const levels = (await t.call(store, 'GET', `/inventory-levels?locationId=${home}&sort=createdAt`)).body.data;
    expect(levels.map((level: { available: number }) => level.available).sort()).toEqual([4, 6]);
    const mug = (await t.call(store, 'GET', '/products?search=mug')).body.data[0];
    await t.call(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: shop, available: 1 }] });
    const second = await importLines(
      t,
      store,
      [
        { ...lines[0], totalStock: 9 },
        { ...lines[1], variants: [{ attributes: { Size: 'S' }, stock: 7 }] },
      ],
      'per-line',
    );
    expect(second.errors).toEqual([
      expect.objectContaining({ line: 1, code: 'MULTI_LOCATION_STOCK', details: [expect.objectContaining({ field: 'totalStock' })] }),
    ]);
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.totalStock).toBe(5);
    const tee = (await t.call(store, 'GET', '/products?search=tee')).body.data[0];
    expect(tee.variants.find((variant: { attributes: { Size: string } }) => variant.attributes.Size === 'S').stock).toBe(7);
  });
});
