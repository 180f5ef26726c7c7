import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf, settled } from '../../test/support/feed.fixtures.js';
import { statementsOf } from '../../test/support/statements.js';
import { setSavepoint, withTx } from '../db/index.js';
import { noteUpdated } from './notes.js';

/**
 * Derived changes (docs/events.md): a write that changes another record's representation moves that
 * record's updatedAt and appends its `updated` event, data as a later GET returns it, once per write.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const { eventsOf, body } = feedOf(() => t);

/** A record the write is expected to change: its event type and where GET reads it. */
interface Expected {
  type: string;
  url: string;
}

/**
 * Runs `write` and asserts its events: its own (type only: the feed's own tests check its data) first, then
 * exactly one event per derived record, data equal to GET after the write, updatedAt later than before.
 */
async function expectDerived(store: TestStore, write: () => Promise<unknown>, own: string | null, derived: Expected[]) {
  const before = await Promise.all(derived.map((record) => body(store, 'GET', record.url)));
  await new Promise((resolve) => setTimeout(resolve, 5));
  const since = new Date().toISOString();
  const events = await eventsOf(store, write);
  if (own) expect(events[0]?.type).toBe(own);
  // A checkout's levels (inventory.updated, one per level it changes) are held by src/locations/checkout-levels.test.ts.
  const rest = (own ? events.slice(1) : events).filter((event) => event.type !== 'inventory.updated');
  expect(rest.map((event) => `${event.type} ${event.data.id}`).sort()).toEqual(
    derived.map((record, i) => `${record.type} ${before[i].id}`).sort(),
  );
  for (const [i, record] of derived.entries()) {
    const after = await body(store, 'GET', record.url);
    const event = rest.find((e) => e.type === record.type && e.data.id === after.id);
    expect(event?.data, record.url).toEqual(after);
    if ('updatedAt' in after) expect(Date.parse(after.updatedAt), record.url).toBeGreaterThan(Date.parse(before[i].updatedAt));
    await expectListedSince(store, record.url, since);
  }
  return events;
}

/**
 * A sync job polling the record's list with `updatedSince` (CONTRACT §9.3) sees the derived change: the
 * record is listed since the instant before the write (addresses have no list: a customer's is not paged).
 */
async function expectListedSince(store: TestStore, url: string, since: string) {
  const list = url.replace(/\/[0-9a-f]{24}$/, '');
  if (list === '/addresses') return;
  const listed = await body(store, 'GET', `${list}?updatedSince=${since}&sort=-updatedAt&limit=250`);
  expect(
    listed.map((record: { id: string }) => record.id),
    `${list} updatedSince`,
  ).toContain(url.slice(list.length + 1));
}

async function productWithStock(store: TestStore, title: string) {
  const product = await body(store, 'POST', '/products', { title, price: 10, options: [{ name: 'Size', values: ['S', 'M'] }] });
  for (const [i, variant] of product.variants.entries()) {
    await body(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: 5, sku: `${title}-${i}` });
  }
  return body(store, 'GET', `/products/${product.id}`);
}

const line = (product: { id: string; variants: { sku: string }[] }, index: number, quantity: number) => ({
  productId: product.id,
  title: 'Tee',
  price: 10,
  quantity,
  sku: product.variants[index].sku,
});

describe('stock moves of orders', () => {
  it('a decrement checkout is product.updated for each product it takes from, once, and a restock again', async () => {
    const store = await t.newStore();
    const tee = await productWithStock(store, 'Tee');
    const cap = await productWithStock(store, 'Cap');
    const products = [tee, cap].map((p) => ({ type: 'product.updated', url: `/products/${p.id}` }));
    let orderId = '';
    const cartItems = [line(tee, 0, 1), line(tee, 1, 2), line(cap, 0, 1)];
    const checkout = async () => {
      orderId = (await body(store, 'POST', '/orders', { cartItems, subTotal: 40, totalAmount: 40, inventoryBehaviour: 'decrement' })).id;
    };
    await expectDerived(store, checkout, 'order.created', products);
    expect((await body(store, 'GET', `/products/${tee.id}`)).variants.map((v: { stock: number }) => v.stock)).toEqual([4, 3]);
    const cancel = () => body(store, 'PATCH', `/orders/${orderId}`, { orderStatus: 'cancelled', restock: true });
    await expectDerived(store, cancel, 'order.updated', products);
  });

  it('a bypass order and a cancel without restock change no product', async () => {
    const store = await t.newStore();
    const tee = await productWithStock(store, 'Tee');
    let orderId = '';
    const order = async () => {
      orderId = (await body(store, 'POST', '/orders', { cartItems: [line(tee, 0, 1)], subTotal: 10, totalAmount: 10 })).id;
    };
    await expectDerived(store, order, 'order.created', []);
    await expectDerived(store, () => body(store, 'PATCH', `/orders/${orderId}`, { orderStatus: 'cancelled' }), 'order.updated', []);
  });
});

const productUrl = (id: string) => ({ type: 'product.updated', url: `/products/${id}` });
const collectionUrl = (id: string) => ({ type: 'collection.updated', url: `/collections/${id}` });

describe('manual membership shows on both sides', () => {
  it("a product's selectedCollections changes the collections it joins or leaves, not those it stays in", async () => {
    const store = await t.newStore();
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((title) => body(store, 'POST', '/collections', { title })));
    let id = '';
    const create = async () => {
      id = (await body(store, 'POST', '/products', { title: 'Tee', price: 10, selectedCollections: [a.id, b.id] })).id;
    };
    await expectDerived(store, create, 'product.created', [collectionUrl(a.id), collectionUrl(b.id)]);
    const patch = () => body(store, 'PATCH', `/products/${id}`, { selectedCollections: [c.id, a.id] });
    await expectDerived(store, patch, 'product.updated', [collectionUrl(b.id), collectionUrl(c.id)]);
    const reorder = () => body(store, 'PATCH', `/products/${id}`, { selectedCollections: [a.id, c.id] });
    await expectDerived(store, reorder, 'product.updated', []);
    await expectDerived(store, () => body(store, 'DELETE', `/products/${id}`), 'product.deleted', [
      collectionUrl(a.id),
      collectionUrl(c.id),
    ]);
  });

  it("a collection's selectedProducts changes the products it gains or loses; its delete changes its members", async () => {
    const store = await t.newStore();
    const [p, q, r] = await Promise.all(['P', 'Q', 'R'].map((title) => body(store, 'POST', '/products', { title, price: 1 })));
    let id = '';
    const create = async () => {
      id = (await body(store, 'POST', '/collections', { title: 'Summer', selectedProducts: [p.id, q.id] })).id;
    };
    await expectDerived(store, create, 'collection.created', [productUrl(p.id), productUrl(q.id)]);
    const patch = () => body(store, 'PATCH', `/collections/${id}`, { selectedProducts: [q.id, r.id] });
    await expectDerived(store, patch, 'collection.updated', [productUrl(p.id), productUrl(r.id)]);
    await expectDerived(store, () => body(store, 'DELETE', `/collections/${id}`), 'collection.deleted', [
      productUrl(q.id),
      productUrl(r.id),
    ]);
  });
});

describe('the collection hierarchy shows on both sides', () => {
  it("a parentCollection set, moved or removed changes the parents' childCollection; a delete detaches the children", async () => {
    const store = await t.newStore();
    const [top, other] = await Promise.all(['Top', 'Other'].map((title) => body(store, 'POST', '/collections', { title })));
    let id = '';
    const create = async () => {
      id = (await body(store, 'POST', '/collections', { title: 'Child', parentCollection: top.id })).id;
    };
    await expectDerived(store, create, 'collection.created', [collectionUrl(top.id)]);
    const move = () => body(store, 'PATCH', `/collections/${id}`, { parentCollection: other.id });
    await expectDerived(store, move, 'collection.updated', [collectionUrl(top.id), collectionUrl(other.id)]);
    await expectDerived(store, () => body(store, 'PATCH', `/collections/${id}`, { parentCollection: other.id }), 'collection.updated', []);
    const grandchild = await body(store, 'POST', '/collections', { title: 'Grandchild', parentCollection: id });
    const remove = () => body(store, 'DELETE', `/collections/${id}`);
    await expectDerived(store, remove, 'collection.deleted', [collectionUrl(other.id), collectionUrl(grandchild.id)]);
  });
});

describe('attributes upserted by product options', () => {
  it('a new option value updates its attribute; known values, in any order, change nothing', async () => {
    const store = await t.newStore();
    const { id: productId } = await body(store, 'POST', '/products', {
      title: 'Tee',
      price: 1,
      options: [{ name: 'Size', values: ['S', 'M'] }],
    });
    const size = (await body(store, 'GET', '/attributes')).find((a: { name: string }) => a.name === 'Size');
    const cap = () => body(store, 'POST', '/products', { title: 'Cap', price: 1, options: [{ name: 'Size', values: ['M', 'S'] }] });
    await expectDerived(store, cap, 'product.created', []);
    const grow = () => body(store, 'PATCH', `/products/${productId}`, { options: [{ name: 'Size', values: ['S', 'M', 'L'] }] });
    await expectDerived(store, grow, 'product.updated', [{ type: 'attribute.updated', url: `/attributes/${size.id}` }]);
    expect((await body(store, 'GET', `/attributes/${size.id}`)).values).toHaveLength(3);
  });

  it('the new attribute is attribute.created with data as GET returns it', async () => {
    const store = await t.newStore();
    const events = await eventsOf(store, () =>
      body(store, 'POST', '/products', { title: 'Tee', price: 1, options: [{ name: 'Colour', values: ['Red'] }] }),
    );
    expect(events.map((e) => e.type)).toEqual(['product.created', 'attribute.created']);
    expect(events[1].data).toEqual(await body(store, 'GET', `/attributes/${events[1].data.id}`));
  });
});

describe('a deleted customer', () => {
  it('is customer.deleted, order.updated for each of its orders (userId now null), address.deleted for its addresses', async () => {
    const store = await t.newStore();
    const customer = await body(store, 'POST', '/customers', { userName: 'ann', email: 'ann@example.com', password: 'secret-123456' });
    const address = await body(store, 'POST', `/customers/${customer.id}/addresses`, { city: 'Lyon' });
    const item = { productId: 'x', title: 'Tee', price: 1, quantity: 1 };
    const order = () => body(store, 'POST', '/orders', { userId: customer.id, cartItems: [item], subTotal: 1, totalAmount: 1 });
    const orders = [await order(), await order()];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const events = await eventsOf(store, () => body(store, 'DELETE', `/customers/${customer.id}`));
    expect(events[0].type).toBe('customer.deleted');
    expect(
      events
        .slice(1)
        .map((e) => `${e.type} ${e.data.id}`)
        .sort(),
    ).toEqual([`address.deleted ${address.id}`, ...orders.map((o) => `order.updated ${o.id}`)].sort());
    expect(events.find((e) => e.type === 'address.deleted')?.data).toEqual(address);
    for (const before of orders) {
      const after = await body(store, 'GET', `/orders/${before.id}`);
      expect(after.userId).toBeNull();
      expect(events.find((e) => e.data.id === before.id)?.data).toEqual(after);
      expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    }
  });
});

describe('a deleted attribute set', () => {
  it('is attribute.updated for each of its attributes (attributeset now null)', async () => {
    const store = await t.newStore();
    const set = await body(store, 'POST', '/attribute-sets', { name: 'Apparel' });
    const attribute = await body(store, 'POST', '/attributes', { name: 'Material', attributeset: set.id });
    expect(attribute.attributeset).toBe(set.id);
    const remove = () => body(store, 'DELETE', `/attribute-sets/${set.id}`);
    await expectDerived(store, remove, 'attributeSet.deleted', [{ type: 'attribute.updated', url: `/attributes/${attribute.id}` }]);
    expect((await body(store, 'GET', `/attributes/${attribute.id}`)).attributeset).toBeNull();
  });
});

describe("a customer's default address", () => {
  it('moving the default is address.updated for the other address whose isDefault changed', async () => {
    const store = await t.newStore();
    const customer = await body(store, 'POST', '/customers', { userName: 'bob', email: 'bob@example.com', password: 'secret-123456' });
    const url = `/customers/${customer.id}/addresses`;
    const home = await body(store, 'POST', url, { city: 'Lyon' });
    const address = (id: string) => ({ type: 'address.updated', url: `/addresses/${id}` });
    let work = '';
    const create = async () => {
      work = (await body(store, 'POST', url, { city: 'Paris', isDefault: true })).id;
    };
    await expectDerived(store, create, 'address.created', [address(home.id)]);
    await expectDerived(store, () => body(store, 'PATCH', `/addresses/${home.id}`, { isDefault: true }), 'address.updated', [
      address(work),
    ]);
    await expectDerived(store, () => body(store, 'PATCH', `/addresses/${home.id}`, { city: 'Nice' }), 'address.updated', []);
    await expectDerived(store, () => body(store, 'PATCH', `/addresses/${home.id}`, { isDefault: false }), 'address.updated', [
      address(work),
    ]);
    await expectDerived(store, () => body(store, 'DELETE', `/addresses/${work}`), 'address.deleted', [address(home.id)]);
    expect((await body(store, 'GET', `/addresses/${home.id}`)).isDefault).toBe(true);
  });
});

describe('reading the derived records', () => {
  it('the products a write changed are read in one query at its end, not one query each', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (const title of ['Tee', 'Cap', 'Bag']) ids.push((await body(store, 'POST', '/products', { title })).id);
    const statements = await statementsOf(t.database.db, (db) =>
      withTx(db, async (trx) => {
        noteUpdated(trx, store.id, 'product', [...ids, 'ffffffffffffffffffffffff']);
        await t.afterWork.append(trx, store.id, null);
      }),
    );
    expect(statements.filter((statement) => /from "products"/.test(statement.sql))).toHaveLength(1);
    // (on PostgreSQL the feed shows a commit once the transactions open before it have ended: other files' too)
    await settled(t);
    // one event per product that exists, in the order noted, data as GET returns it
    const data = await body(store, 'GET', '/events?types=product.updated');
    expect(data.map((event: { data: { id: string } }) => event.data.id)).toEqual(ids);
    expect(data[0].data).toEqual(await body(store, 'GET', `/products/${ids[0]}`));
  });

  it('a rollback to a savepoint forgets what the work noted after it, and a release keeps it', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (const title of ['Kept', 'Undone', 'Released']) ids.push((await body(store, 'POST', '/products', { title })).id);
    const [kept, undone, released] = ids;
    await withTx(t.database.db, async (trx) => {
      noteUpdated(trx, store.id, 'product', [kept]);
      const line = await setSavepoint(trx, 'line_one', [t.afterWork]);
      noteUpdated(trx, store.id, 'product', [undone]);
      await line.rollBack();
      const next = await setSavepoint(trx, 'line_two', [t.afterWork]);
      noteUpdated(trx, store.id, 'product', [released]);
      await next.release();
      await t.afterWork.append(trx, store.id, null);
    });
    await settled(t);
    const data = await body(store, 'GET', '/events?types=product.updated');
    expect(data.map((event: { data: { id: string } }) => event.data.id)).toEqual([kept, released]);
  });
});
