import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf, settled } from '../../test/support/feed.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());
const { eventsOf } = feedOf(() => t);

/** The inventory.updated a write appends, as [location, available], each equal to the level GET /inventory-levels lists. */
async function levelEventsOf(store: TestStore, write: () => Promise<unknown>) {
  const events = (await eventsOf(store, write)).filter((event) => event.type === 'inventory.updated');
  const listed = (await t.call(store, 'GET', '/inventory-levels?limit=250')).body.data;
  for (const event of events) expect(event.data).toEqual(listed.find((level: { id: string }) => level.id === event.data.id));
  return events.map((event) => [event.data.locationId, event.data.available]);
}

async function setup(store: TestStore) {
  const home = (await t.call(store, 'GET', '/locations')).body.data[0].id as string;
  const shop = (await t.call(store, 'POST', '/locations', { name: 'Shop' })).body.data.id as string;
  const mug = (await t.call(store, 'POST', '/products', { title: 'Mug', sku: 'MUG', totalStock: 5 })).body.data;
  await t.call(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: shop, available: 3 }] });
  return { home, shop, mug };
}

const order = (productId: string, quantity: number, locationId?: string) => ({
  cartItems: [{ productId, title: 'Mug', price: 1, quantity, sku: 'MUG', ...(locationId ? { locationId } : {}) }],
  subTotal: quantity,
  totalAmount: quantity,
  inventoryBehaviour: 'decrement',
});

const levelsOf = async (store: TestStore, productId: string) =>
  Object.fromEntries(
    (await t.call(store, 'GET', `/inventory-levels?productId=${productId}`)).body.data.map(
      (level: { locationId: string; available: number }) => [level.locationId, level.available],
    ),
  );

describe('checkout stock per location (CONTRACT §9.6, §13)', () => {
  it('a cart item naming locationId takes from that location; without it, from the default', async () => {
    const store = await t.newStore();
    const { home, shop, mug } = await setup(store);
    expect((await t.call(store, 'POST', '/orders', order(mug.id, 2, shop))).status).toBe(201);
    expect((await t.call(store, 'POST', '/orders', order(mug.id, 1))).status).toBe(201);
    expect(await levelsOf(store, mug.id)).toEqual({ [home]: 4, [shop]: 1 });
    // On PostgreSQL the feed shows a commit once the transactions open before it have ended (other files' too).
    await settled(t);
    const events = (await t.call(store, 'GET', '/events?types=inventory.updated&limit=250')).body.data;
    expect(
      events.map((event: { data: { locationId: string; available: number } }) => [event.data.locationId, event.data.available]),
    ).toEqual([
      [home, 5],
      [shop, 3],
      [shop, 1],
      [home, 4],
    ]);
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.totalStock).toBe(5);
    const short = expectError(await t.call(store, 'POST', '/orders', order(mug.id, 2, shop)), 409, 'INSUFFICIENT_STOCK');
    expect(short.details[0].field).toBe('cartItems[0].quantity');
  });

  it('an unknown or inactive location is a 400 naming cartItems[i].locationId', async () => {
    const store = await t.newStore();
    const { shop, mug } = await setup(store);
    await t.call(store, 'POST', '/inventory-levels/set', { items: [{ productId: mug.id, locationId: shop, available: 0 }] });
    await t.call(store, 'PATCH', `/locations/${shop}`, { active: false });
    const closed = expectError(await t.call(store, 'POST', '/orders', order(mug.id, 1, shop)), 400, 'VALIDATION_ERROR');
    expect(closed.details[0].field).toBe('cartItems[0].locationId');
    const other = (await t.call(await t.newStore(), 'GET', '/locations')).body.data[0].id;
    const unknown = expectError(await t.call(store, 'POST', '/orders', order(mug.id, 1, other)), 400, 'VALIDATION_ERROR');
    expect(unknown.details[0].field).toBe('cartItems[0].locationId');
  });

  it('a restock after its location was deactivated goes back there, counted again once it is active', async () => {
    const store = await t.newStore();
    const { home, shop, mug } = await setup(store);
    const placed = await t.call(store, 'POST', '/orders', order(mug.id, 2, shop));
    expect(placed.status).toBe(201);
    expect((await t.call(store, 'PATCH', `/locations/${shop}`, { active: false })).status).toBe(200);
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.totalStock).toBe(5);
    const restocked = await levelEventsOf(store, async () => {
      const cancelled = await t.call(store, 'PATCH', `/orders/${placed.body.data.id}`, { orderStatus: 'cancelled', restock: true });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    });
    // one inventory.updated, for the level the units went back to
    expect(restocked).toEqual([[shop, 3]]);
    expect(await levelsOf(store, mug.id)).toEqual({ [home]: 5, [shop]: 3 });
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.totalStock).toBe(5);
    await t.call(store, 'PATCH', `/locations/${shop}`, { active: true });
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.totalStock).toBe(8);
  });

  it('a restock whose location was deleted goes to the default', async () => {
    const store = await t.newStore();
    const { home, shop, mug } = await setup(store);
    const placed = await t.call(store, 'POST', '/orders', order(mug.id, 3, shop));
    expect((await t.call(store, 'DELETE', `/locations/${shop}`)).status).toBe(200);
    const restocked = await levelEventsOf(store, () =>
      t.call(store, 'PATCH', `/orders/${placed.body.data.id}`, { orderStatus: 'cancelled', restock: true }),
    );
    expect(restocked).toEqual([[home, 8]]);
    expect(await levelsOf(store, mug.id)).toEqual({ [home]: 8 });
    expect((await t.call(store, 'GET', `/products/${mug.id}`)).body.data.totalStock).toBe(8);
  });
});
