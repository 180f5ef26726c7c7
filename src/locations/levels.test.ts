import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());
const { eventsOf } = feedOf(() => t);

async function homeOf(store: TestStore): Promise<string> {
  const res = await t.call(store, 'GET', '/locations');
  return res.body.data.find((location: { isDefault: boolean }) => location.isDefault).id;
}

async function location(store: TestStore, name: string): Promise<string> {
  const res = await t.call(store, 'POST', '/locations', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function simple(store: TestStore, totalStock = 0) {
  const res = await t.call(store, 'POST', '/products', { title: 'Mug', sku: `MUG-${Math.random()}`, totalStock });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; totalStock: number | null };
}

async function withVariants(store: TestStore) {
  const res = await t.call(store, 'POST', '/products', { title: 'Tee', options: [{ name: 'Size', values: ['S', 'M'] }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; variants: { id: string; stock: number }[] };
}

const product = async (store: TestStore, id: string) => (await t.call(store, 'GET', `/products/${id}`)).body.data;

describe('inventory levels', () => {
  it('stock written through a product is the default location’s level; the totals are the sum over active locations', async () => {
    const store = await t.newStore();
    const home = await homeOf(store);
    const mug = await simple(store, 7);
    const levels = await t.call(store, 'GET', `/inventory-levels?productId=${mug.id}`);
    expect(levels.body.data).toEqual([
      { id: expect.any(String), productId: mug.id, variantId: null, locationId: home, available: 7, updatedAt: expect.any(String) },
    ]);
    const shop = await location(store, 'Shop');
    const set = await t.call(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: shop, available: 5 }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual([
      { id: expect.any(String), productId: mug.id, variantId: null, locationId: shop, available: 5, updatedAt: expect.any(String) },
    ]);
    expect((await product(store, mug.id)).totalStock).toBe(12);
    expect((await t.call(store, 'PATCH', `/locations/${shop}`, { active: false })).status).toBe(200);
    expect((await product(store, mug.id)).totalStock).toBe(7);
    expect((await t.call(store, 'PATCH', `/locations/${shop}`, { active: true })).status).toBe(200);
    expect((await product(store, mug.id)).totalStock).toBe(12);
    const tee = await withVariants(store);
    const [small] = tee.variants;
    const adjusted = await t.call(store, 'POST', '/inventory-levels/adjust', {
      items: [
        { productId: tee.id, variantId: small.id, locationId: shop, delta: 4 },
        { productId: tee.id, variantId: small.id, locationId: home, delta: 2 },
      ],
    });
    expect(adjusted.body.data.map((level: { available: number }) => level.available)).toEqual([4, 2]);
    const got = await product(store, tee.id);
    expect(got.variants.find((variant: { id: string }) => variant.id === small.id).stock).toBe(6);
  });

  it('writing stock through products while another location holds some is a 409 MULTI_LOCATION_STOCK naming the field', async () => {
    const store = await t.newStore();
    const shop = await location(store, 'Shop');
    const mug = await simple(store, 3);
    expect((await t.call(store, 'PATCH', `/products/${mug.id}`, { totalStock: 4 })).status).toBe(200);
    await t.call(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: shop, available: 1 }] });
    const refused = expectError(await t.call(store, 'PATCH', `/products/${mug.id}`, { totalStock: 9 }), 409, 'MULTI_LOCATION_STOCK');
    expect(refused.details[0].field).toBe('totalStock');
    expect(refused.message).toContain('/inventory-levels');
    expect((await t.call(store, 'PATCH', `/products/${mug.id}`, { title: 'Big mug', totalStock: 5 })).status).toBe(200);
    const tee = await withVariants(store);
    const [small] = tee.variants;
    await t.call(store, 'POST', '/inventory-levels/set', {
      items: [{ productId: tee.id, variantId: small.id, locationId: shop, available: 2 }],
    });
    const variant = expectError(
      await t.call(store, 'PATCH', `/products/${tee.id}/variants/${small.id}`, { stock: 8 }),
      409,
      'MULTI_LOCATION_STOCK',
    );
    expect(variant.details[0].field).toBe('stock');
    expect((await product(store, tee.id)).variants[0].stock).toBe(2);
  });

  it('set with compareAvailable: a stale item is a 409 INVENTORY_CHANGED naming it, and a set of 250 with one stale changes nothing', async () => {
    const store = await t.newStore();
    const home = await homeOf(store);
    const items = [];
    for (let i = 0; i < 25; i++) {
      const res = await t.call(store, 'POST', '/products', {
        title: `P${i}`,
        options: [{ name: 'Size', values: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] }],
      });
      for (const variant of res.body.data.variants) items.push({ productId: res.body.data.id, variantId: variant.id, locationId: home });
    }
    expect(items).toHaveLength(250);
    const first = await t.call(store, 'POST', '/inventory-levels/set', {
      items: items.map((item) => ({ ...item, available: 3, compareAvailable: 0 })),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const body = { items: items.map((item, i) => ({ ...item, available: 9, compareAvailable: i === 137 ? 2 : 3 })) };
    const refused = expectError(await t.call(store, 'POST', '/inventory-levels/set', body), 409, 'INVENTORY_CHANGED');
    expect(refused.details).toEqual([{ field: 'items[137].compareAvailable', in: 'body', message: expect.stringContaining('3') }]);
    const levels = await t.call(store, 'GET', `/inventory-levels?locationId=${home}&limit=250`);
    expect(levels.body.data.map((level: { available: number }) => level.available)).toEqual(new Array(250).fill(3));
    expect(levels.body.pagination.total).toBe(250);
  });

  it('two syncs racing with compareAvailable on one level: exactly one wins, the other gets 409', async () => {
    const store = await t.newStore();
    const home = await homeOf(store);
    const mug = await simple(store, 10);
    const racers = [11, 12].map((available) =>
      t.call(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: home, available, compareAvailable: 10 }] }),
    );
    const answers = await Promise.all(racers);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.status === 200)?.body.data[0].available;
    expect((await product(store, mug.id)).totalStock).toBe(winner);
  });

  it('20 parallel adjusts of -1 against 10 leave exactly 0 and refuse exactly 10', async () => {
    const store = await t.newStore();
    const home = await homeOf(store);
    const mug = await simple(store, 10);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call(store, 'POST', '/inventory-levels/adjust', { items: [{ productId: mug.id, locationId: home, delta: -1 }] }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expectError(refused, 409, 'INSUFFICIENT_STOCK');
    expect((await product(store, mug.id)).totalStock).toBe(0);
    const negative = await t.call(store, 'POST', '/inventory-levels/adjust', {
      items: [{ productId: mug.id, locationId: home, delta: -2 }],
      allowNegative: true,
    });
    expect(negative.body.data[0].available).toBe(-2);
    expect((await product(store, mug.id)).totalStock).toBe(-2);
  });

  it('an item of another store, a wrong variant, an unknown or inactive location is a 400 naming items[i]', async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const home = await homeOf(store);
    const closed = await location(store, 'Closed');
    await t.call(store, 'PATCH', `/locations/${closed}`, { active: false });
    const mine = await simple(store);
    const theirs = await simple(other);
    const tee = await withVariants(store);
    const res = await t.call(store, 'POST', '/inventory-levels/adjust', {
      items: [
        { productId: mine.id, locationId: home, delta: 1 },
        { productId: theirs.id, locationId: home, delta: 1 },
        { productId: mine.id, locationId: closed, delta: 1 },
        { productId: mine.id, locationId: await homeOf(other), delta: 1 },
        { productId: tee.id, locationId: home, delta: 1 },
        { productId: mine.id, variantId: tee.variants[0].id, locationId: home, delta: 1 },
        { productId: mine.id, locationId: home, delta: 1 },
      ],
    });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details.map((detail: { field: string }) => detail.field)).toEqual([
      'items[1].productId',
      'items[2].locationId',
      'items[3].locationId',
      'items[4].variantId',
      'items[5].variantId',
      'items[6].locationId',
    ]);
    expect((await t.call(store, 'GET', `/inventory-levels?productId=${mine.id}`)).body.data).toEqual([]);
  });

  it('appends inventory.updated per changed level and product.updated for its product; Idempotency-Key replays', async () => {
    const store = await t.newStore();
    const home = await homeOf(store);
    const mug = await simple(store, 1);
    const body = { items: [{ productId: mug.id, locationId: home, delta: 2 }] };
    const key = { 'idempotency-key': 'adjust-1' };
    let first = { body: { data: [] as unknown[] } };
    // the feed read on from its end after the create (whose stock made the level: its own inventory.updated)
    const events = await eventsOf(store, async () => {
      first = await t.call(store, 'POST', '/inventory-levels/adjust', body, key);
      const again = await t.call(store, 'POST', '/inventory-levels/adjust', body, key);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    });
    expect(events.map((event) => event.type).sort()).toEqual(['inventory.updated', 'product.updated']);
    const level = events.find((event) => event.type === 'inventory.updated');
    expect(level?.data).toEqual(first.body.data[0]);
    expect((await product(store, mug.id)).totalStock).toBe(3);
  });

  it('lists by updatedSince and cursor', async () => {
    const store = await t.newStore();
    const home = await homeOf(store);
    for (let i = 0; i < 5; i++) await simple(store, i + 1);
    const first = await t.call(store, 'GET', `/inventory-levels?locationId=${home}&limit=2&sort=updatedAt`);
    const seen = [...first.body.data];
    let cursor = first.body.pagination.nextCursor;
    while (cursor) {
      const page = await t.call(
        store,
        'GET',
        `/inventory-levels?locationId=${home}&limit=2&sort=updatedAt&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.data);
      cursor = page.body.pagination.nextCursor;
    }
    expect(seen.map((level) => level.available).sort()).toEqual([1, 2, 3, 4, 5]);
    const since = seen[3].updatedAt;
    const recent = await t.call(store, 'GET', `/inventory-levels?updatedSince=${since}`);
    expect(recent.body.data.length).toBeGreaterThanOrEqual(2);
  });
});
