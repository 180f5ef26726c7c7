import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type FeedEvent, feedOf } from '../../test/support/feed.fixtures.js';
import { importAndRun } from '../../test/support/jobs.fixtures.js';

/**
 * CONTRACT §13: every path that changes a level's `available` appends exactly one `inventory.updated` per
 * changed level, its data the level as GET /inventory-levels shows it, and none for a level left as it was.
 * The paths where the database moves the level (a total written through a product or variant row:
 * migrations 0114, 0124) are held here; `set` and `adjust` by levels.test.ts, a checkout by checkout-levels.test.ts.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());
const { eventsOf, body } = feedOf(() => t);

type Level = { id: string; productId: string; variantId: string | null; locationId: string; available: number; updatedAt: string };

const levelEvents = (events: FeedEvent[]) => events.filter((event) => event.type === 'inventory.updated').map((event) => event.data);

/** Each level event's data is the level as GET /inventory-levels now shows it; their [item, available], sorted. */
async function expectLevels(store: TestStore, events: FeedEvent[], expected: [string, number][]) {
  const data = levelEvents(events) as unknown as Level[];
  const listed: Level[] = await body(store, 'GET', '/inventory-levels?limit=250');
  for (const level of data) expect(level).toEqual(listed.find((found) => found.id === level.id));
  const sort = (pairs: [string, number][]) => [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  expect(sort(data.map((level) => [level.variantId ?? level.productId, level.available]))).toEqual(sort(expected));
}

const homeOf = async (store: TestStore): Promise<string> =>
  (await body(store, 'GET', '/locations')).find((location: { isDefault: boolean }) => location.isDefault).id;

describe('inventory.updated for the levels a product or variant write moves through its totals', () => {
  it('POST /products: one per level its stock makes, none for stock 0', async () => {
    const store = await t.newStore();
    let mug = { id: '' };
    const created = await eventsOf(store, async () => {
      mug = await body(store, 'POST', '/products', { title: 'Mug', totalStock: 7 });
    });
    expect(created.map((event) => event.type)).toEqual(['product.created', 'inventory.updated']);
    await expectLevels(store, created, [[mug.id, 7]]);
    expect(levelEvents(created)[0]).toMatchObject({ productId: mug.id, variantId: null, locationId: await homeOf(store) });

    let tee = { id: '', variants: [] as { id: string }[] };
    const withVariants = await eventsOf(store, async () => {
      tee = await body(store, 'POST', '/products', {
        title: 'Tee',
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
        variants: [
          { attributes: { Size: 'S' }, stock: 2 },
          { attributes: { Size: 'M' }, stock: 0 },
          { attributes: { Size: 'L' }, stock: 5 },
        ],
      });
    });
    await expectLevels(store, withVariants, [
      [tee.variants[0].id, 2],
      [tee.variants[2].id, 5],
    ]);
    const none = await eventsOf(store, () => body(store, 'POST', '/products', { title: 'Empty', totalStock: 0 }));
    expect(none.map((event) => event.type)).toEqual(['product.created']);
  });

  it('PATCH /products: one per level whose total changed, none for the same figure or another field', async () => {
    const store = await t.newStore();
    const mug = await body(store, 'POST', '/products', { title: 'Mug', totalStock: 3 });
    const patched = await eventsOf(store, () => body(store, 'PATCH', `/products/${mug.id}`, { totalStock: 9 }));
    expect(patched.map((event) => event.type)).toEqual(['product.updated', 'inventory.updated']);
    await expectLevels(store, patched, [[mug.id, 9]]);
    const same = await eventsOf(store, () => body(store, 'PATCH', `/products/${mug.id}`, { totalStock: 9, title: 'Big mug' }));
    expect(same.map((event) => event.type)).toEqual(['product.updated']);

    const tee = await body(store, 'POST', '/products', {
      title: 'Tee',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [{ attributes: { Size: 'S' }, stock: 1 }],
    });
    const entries = await eventsOf(store, () =>
      body(store, 'PATCH', `/products/${tee.id}`, {
        variants: [
          { attributes: { Size: 'S' }, stock: 1 },
          { attributes: { Size: 'M' }, stock: 4 },
        ],
      }),
    );
    await expectLevels(store, entries, [[tee.variants[1].id, 4]]);
  });

  it('a product that loses its options becomes simple: its totalStock is its level', async () => {
    const store = await t.newStore();
    const tee = await body(store, 'POST', '/products', { title: 'Tee', options: [{ name: 'Size', values: ['S'] }], totalStock: 6 });
    const simple = await eventsOf(store, () => body(store, 'PATCH', `/products/${tee.id}`, { options: [] }));
    await expectLevels(store, simple, [[tee.id, 6]]);
  });

  it('PATCH /products/{id}/variants/{id}: one for a changed stock, none for the same', async () => {
    const store = await t.newStore();
    const tee = await body(store, 'POST', '/products', { title: 'Tee', options: [{ name: 'Size', values: ['S', 'M'] }] });
    const [small] = tee.variants;
    const url = `/products/${tee.id}/variants/${small.id}`;
    const changed = await eventsOf(store, () => body(store, 'PATCH', url, { stock: 12 }));
    expect(changed.map((event) => event.type)).toEqual(['product.updated', 'inventory.updated']);
    await expectLevels(store, changed, [[small.id, 12]]);
    const same = await eventsOf(store, () => body(store, 'PATCH', url, { stock: 12, price: 3 }));
    expect(same.map((event) => event.type)).toEqual(['product.updated']);
    const emptied = await eventsOf(store, () => body(store, 'PATCH', url, { stock: 0 }));
    await expectLevels(store, emptied, [[small.id, 0]]);
  });

  it('a product import: one per level its lines move (batched and line by line), none when re-imported', async () => {
    const store = await t.newStore();
    const lines = [
      { title: 'Mug', handle: 'mug', totalStock: 4 },
      { title: 'Cup', handle: 'cup' },
      { title: 'Tee', handle: 'tee', options: [{ name: 'Size', values: ['S', 'M'] }], variants: [{ attributes: { Size: 'M' }, stock: 3 }] },
    ];
    const first = await eventsOf(store, () => importAndRun(t, store, 'products', lines));
    const products: { id: string; handle: string; variants: { id: string }[] }[] = await body(store, 'GET', '/products?limit=10');
    const id = (handle: string) => products.find((product) => product.handle === handle) as (typeof products)[number];
    await expectLevels(store, first, [
      [id('mug').id, 4],
      [id('tee').variants[1].id, 3],
    ]);
    // an existing product is updated line by line (the batch creates only)
    const changed = [{ ...lines[0], totalStock: 6 }, lines[1], lines[2]];
    const second = await eventsOf(store, () => importAndRun(t, store, 'products', changed));
    await expectLevels(store, second, [[id('mug').id, 6]]);
    const again = await eventsOf(store, () => importAndRun(t, store, 'products', changed));
    expect(levelEvents(again)).toEqual([]);
  });

  it('a rejected write appends nothing: the 409 MULTI_LOCATION_STOCK', async () => {
    const store = await t.newStore();
    const mug = await body(store, 'POST', '/products', { title: 'Mug', totalStock: 1 });
    const shop = await body(store, 'POST', '/locations', { name: 'Shop' });
    await body(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: shop.id, available: 2 }] });
    const refused = await eventsOf(store, async () => {
      expect((await t.call(store, 'PATCH', `/products/${mug.id}`, { totalStock: 5 })).status).toBe(409);
    });
    expect(refused).toEqual([]);
  });
});
