import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

interface Variant {
  id: string;
  sku: string;
  stock: number;
}

/** A product with one variant per size, each with the given stock. */
async function productWith(store: TestStore, stocks: number[]): Promise<{ id: string; variants: Variant[] }> {
  const sizes = stocks.map((_, i) => `S${i}`);
  const product = (await t.call(store, 'POST', '/products', { title: 'Tee', price: 10, options: [{ name: 'Size', values: sizes }] })).body
    .data;
  for (const [i, variant] of product.variants.entries()) {
    const res = await t.call(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: stocks[i] });
    expect(res.status).toBe(200);
  }
  return (await t.call(store, 'GET', `/products/${product.id}`)).body.data;
}

const stocksOf = async (store: TestStore, productId: string) =>
  (await t.call(store, 'GET', `/products/${productId}`)).body.data.variants.map((v: Variant) => v.stock);

const item = (productId: string, sku: string | undefined, quantity: number) => ({ productId, title: 'Tee', price: 10, quantity, sku });
const checkout = (items: object[]) => ({ cartItems: items, subTotal: 10, totalAmount: 10, inventoryBehaviour: 'decrement' });

async function orderCount(store: TestStore): Promise<number> {
  return (await t.call(store, 'GET', '/orders')).body.pagination.total;
}

describe('orders with inventoryBehaviour "decrement"', () => {
  it('takes the stock of every item (one variant named twice is summed) and says so on the order', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [5, 3]);
    const [a, b] = product.variants;
    const res = await t.call(
      store,
      'POST',
      '/orders',
      checkout([item(product.id, a.sku, 2), item(product.id, b.sku, 3), item(product.id, a.sku, 1)]),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ inventoryBehaviour: 'decrement', restockedAt: null });
    expect(await stocksOf(store, product.id)).toEqual([2, 0]);
  });

  it('leaves stock alone by default (bypass), also for items naming no variant', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [5]);
    const res = await t.call(store, 'POST', '/orders', {
      cartItems: [item(product.id, product.variants[0].sku, 2), item('elsewhere', undefined, 1)],
      subTotal: 1,
      totalAmount: 1,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ inventoryBehaviour: 'bypass', restockedAt: null });
    expect(await stocksOf(store, product.id)).toEqual([5]);
  });

  it('is all or nothing: one short item is a 409 naming it, and nothing is written', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [5, 1]);
    const [a, b] = product.variants;
    const res = await t.call(store, 'POST', '/orders', checkout([item(product.id, a.sku, 2), item(product.id, b.sku, 2)]));
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.body.error.details).toEqual([
      { field: 'cartItems[1].quantity', in: 'body', message: expect.stringContaining('1 in stock') },
    ]);
    expect(await stocksOf(store, product.id)).toEqual([5, 1]);
    expect(await orderCount(store)).toBe(0);
  });

  it('sums one variant across items: each item of a short variant gets a detail', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [3, 9]);
    const [a, b] = product.variants;
    const res = await t.call(
      store,
      'POST',
      '/orders',
      checkout([item(product.id, a.sku, 2), item(product.id, b.sku, 1), item(product.id, a.sku, 2)]),
    );
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['cartItems[0].quantity', 'cartItems[2].quantity']);
    expect(await stocksOf(store, product.id)).toEqual([3, 9]);
  });

  it('needs every item to name a variant of this store by productId and sku (400 naming cartItems[i].sku)', async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const product = await productWith(store, [5]);
    const foreign = await productWith(other, [5]);
    const sku = product.variants[0].sku;
    const res = await t.call(
      store,
      'POST',
      '/orders',
      checkout([
        item(product.id, sku, 1),
        item(product.id, undefined, 1),
        item(product.id, 'NO-SUCH-SKU', 1),
        item('not-a-product', sku, 1),
        item(foreign.id, foreign.variants[0].sku, 1),
      ]),
    );
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'cartItems[1].sku',
      'cartItems[2].sku',
      'cartItems[3].sku',
      'cartItems[4].sku',
    ]);
    expect(await stocksOf(store, product.id)).toEqual([5]);
    expect(await stocksOf(other, foreign.id)).toEqual([5]);
    expect(await orderCount(store)).toBe(0);
  });

  it('a 409 with an Idempotency-Key records nothing: the same request succeeds once stock is back', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [1]);
    const variant = product.variants[0];
    const body = checkout([item(product.id, variant.sku, 2)]);
    const headers = { 'idempotency-key': 'checkout-1' };
    expectError(await t.call(store, 'POST', '/orders', body, headers), 409, 'INSUFFICIENT_STOCK');
    expect(await orderCount(store)).toBe(0);
    await t.call(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: 2 });
    const retried = await t.call(store, 'POST', '/orders', body, headers);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await t.call(store, 'POST', '/orders', body, headers);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await stocksOf(store, product.id)).toEqual([0]);
    expect(await orderCount(store)).toBe(1);
  });

  it('100 parallel orders of quantity 1 against a stock of 10: exactly 10 created, 90 × 409, stock 0', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [10]);
    const body = checkout([item(product.id, product.variants[0].sku, 1)]);
    const replies = await Promise.all(Array.from({ length: 100 }, () => t.call(store, 'POST', '/orders', body)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(90);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body.error.code).toBe('INSUFFICIENT_STOCK');
    expect(await stocksOf(store, product.id)).toEqual([0]);
    expect(await orderCount(store)).toBe(10);
  });

  it('parallel multi-variant orders naming the variants in opposite orders never deadlock or oversell', async () => {
    const store = await t.newStore();
    const product = await productWith(store, [20, 20]);
    const [a, b] = product.variants;
    const forward = checkout([item(product.id, a.sku, 1), item(product.id, b.sku, 1)]);
    const backward = checkout([item(product.id, b.sku, 1), item(product.id, a.sku, 1)]);
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => t.call(store, 'POST', '/orders', i % 2 ? forward : backward)));
    expect(replies.map((r) => r.status).sort()).toEqual([...Array(20).fill(201), ...Array(10).fill(409)]);
    expect(await stocksOf(store, product.id)).toEqual([0, 0]);
  });
});

describe('cancel with restock', () => {
  async function decrementOrder(store: TestStore) {
    const product = await productWith(store, [5, 5]);
    const [a, b] = product.variants;
    const order = (await t.call(store, 'POST', '/orders', checkout([item(product.id, a.sku, 2), item(product.id, b.sku, 1)]))).body.data;
    expect(await stocksOf(store, product.id)).toEqual([3, 4]);
    return { product, order };
  }
  const cancel = { orderStatus: 'cancelled', restock: true };

  it('puts the quantities back once: a second cancel, or a later change, changes no stock', async () => {
    const store = await t.newStore();
    const { product, order } = await decrementOrder(store);
    const first = await t.call(store, 'PATCH', `/orders/${order.id}`, cancel);
    expect(first.status).toBe(200);
    expect(first.body.data.orderStatus).toBe('cancelled');
    expect(first.body.data.restockedAt).toEqual(expect.any(String));
    expect(await stocksOf(store, product.id)).toEqual([5, 5]);
    const second = await t.call(store, 'PATCH', `/orders/${order.id}`, cancel);
    expect(second.status).toBe(200);
    expect(second.body.data.restockedAt).toBe(first.body.data.restockedAt);
    await t.call(store, 'PATCH', `/orders/${order.id}`, { orderStatus: 'pending' });
    await t.call(store, 'PATCH', `/orders/${order.id}`, cancel);
    expect(await stocksOf(store, product.id)).toEqual([5, 5]);
  });

  it('parallel cancels with restock put the stock back exactly once', async () => {
    const store = await t.newStore();
    const { product, order } = await decrementOrder(store);
    const replies = await Promise.all(Array.from({ length: 10 }, () => t.call(store, 'PATCH', `/orders/${order.id}`, cancel)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await stocksOf(store, product.id)).toEqual([5, 5]);
  });

  it('cancelling without restock, or a bypass order with restock, changes no stock', async () => {
    const store = await t.newStore();
    const { product, order } = await decrementOrder(store);
    const plain = await t.call(store, 'PATCH', `/orders/${order.id}`, { orderStatus: 'cancelled' });
    expect(plain.body.data.restockedAt).toBeNull();
    expect(await stocksOf(store, product.id)).toEqual([3, 4]);
    const bypass = (
      await t.call(store, 'POST', '/orders', { ...checkout([item(product.id, product.variants[0].sku, 1)]), inventoryBehaviour: 'bypass' })
    ).body.data;
    const res = await t.call(store, 'PATCH', `/orders/${bypass.id}`, cancel);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ orderStatus: 'cancelled', restockedAt: null });
    expect(await stocksOf(store, product.id)).toEqual([3, 4]);
    // the decrement order cancelled earlier without restock can still be restocked, once
    await t.call(store, 'PATCH', `/orders/${order.id}`, cancel);
    expect(await stocksOf(store, product.id)).toEqual([5, 5]);
  });

  it('restock needs orderStatus "cancelled" in the same request (400, nothing changes)', async () => {
    const store = await t.newStore();
    const { product, order } = await decrementOrder(store);
    const res = await t.call(store, 'PATCH', `/orders/${order.id}`, { restock: true });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe('restock');
    expectError(await t.call(store, 'PATCH', `/orders/${order.id}`, { orderStatus: 'refunded', restock: true }), 400, 'VALIDATION_ERROR');
    expect(await stocksOf(store, product.id)).toEqual([3, 4]);
  });

  it('skips a variant deleted since (its product lost the option value) and restocks the rest', async () => {
    const store = await t.newStore();
    const { product, order } = await decrementOrder(store);
    await t.call(store, 'PATCH', `/products/${product.id}`, { options: [{ name: 'Size', values: ['S1'] }] });
    const res = await t.call(store, 'PATCH', `/orders/${order.id}`, cancel);
    expect(res.status).toBe(200);
    expect(await stocksOf(store, product.id)).toEqual([5]);
  });
});
