import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { storedProduct } from '../products/product-documents.sql.js';
import { getProduct } from '../products/products.service.js';
import { canonicalJson } from '../shared/canonical-json.js';

/**
 * A decrement checkout naming a simple product (no options, so no variants) by productId and the product's
 * own sku takes its totalStock, under the rules variants have (orders.stock.test.ts): all or nothing, summed
 * across items, no oversell under concurrency, put back once by a cancel with restock.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function simpleProduct(store: TestStore, sku: string, totalStock: number | null): Promise<string> {
  const reply = await t.call(store, 'POST', '/products', { title: `Simple ${sku}`, price: 10, sku, totalStock });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data.id;
}

const stockOf = async (store: TestStore, id: string) => (await t.call(store, 'GET', `/products/${id}`)).body.data.totalStock;
const item = (productId: string, sku: string, quantity: number) => ({ productId, title: 'Thing', price: 10, quantity, sku });
const checkout = (items: object[]) => ({ cartItems: items, subTotal: 10, totalAmount: 10, inventoryBehaviour: 'decrement' });

describe('decrement checkout of simple products', () => {
  it("takes the product's totalStock (items summed), with variants of another product in the same order", async () => {
    const store = await t.newStore();
    const mug = await simpleProduct(store, 'MUG', 5);
    const tee = (
      await t.call(store, 'POST', '/products', {
        title: 'Tee',
        options: [{ name: 'Size', values: ['S'] }],
        variants: [{ attributes: { Size: 'S' }, stock: 4, sku: 'TEE-S' }],
      })
    ).body.data;
    const before = (await t.call(store, 'GET', `/products/${mug}`)).body.data;
    const order = await t.call(store, 'POST', '/orders', checkout([item(mug, 'MUG', 2), item(tee.id, 'TEE-S', 1), item(mug, 'MUG', 1)]));
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const after = (await t.call(store, 'GET', `/products/${mug}`)).body.data;
    expect(after.totalStock).toBe(2);
    expect(after.updatedAt >= before.updatedAt).toBe(true);
    // the checkout wrote the product's stored document anew: it is the product its rows give
    const stored = await storedProduct(t.database.db, store.id, mug);
    expect(stored?.body).toBe(canonicalJson(await getProduct(t.database.db, store.id, mug)));
    expect((await t.call(store, 'GET', `/products/${tee.id}`)).body.data.variants[0].stock).toBe(3);

    // cancel with restock puts both back, once
    const cancel = { orderStatus: 'cancelled', restock: true };
    expect((await t.call(store, 'PATCH', `/orders/${order.body.data.id}`, cancel)).status).toBe(200);
    expect((await t.call(store, 'PATCH', `/orders/${order.body.data.id}`, cancel)).status).toBe(200);
    expect(await stockOf(store, mug)).toBe(5);
    expect((await t.call(store, 'GET', `/products/${tee.id}`)).body.data.variants[0].stock).toBe(4);
  });

  it('is all or nothing: a short simple product is a 409 naming its items, and no stock changes', async () => {
    const store = await t.newStore();
    const mug = await simpleProduct(store, 'MUG', 2);
    const cup = await simpleProduct(store, 'CUP', 9);
    const unset = await simpleProduct(store, 'NONE', null);
    const short = await t.call(store, 'POST', '/orders', checkout([item(cup, 'CUP', 1), item(mug, 'MUG', 2), item(mug, 'MUG', 1)]));
    const error = expectError(short, 409, 'INSUFFICIENT_STOCK');
    expect(error.details.map((d) => d.field)).toEqual(['cartItems[1].quantity', 'cartItems[2].quantity']);
    expect(error.details[0].message).toContain('2 in stock');
    expect(await stockOf(store, mug)).toBe(2);
    expect(await stockOf(store, cup)).toBe(9);
    // a product with no totalStock has none to take
    expectError(await t.call(store, 'POST', '/orders', checkout([item(unset, 'NONE', 1)])), 409, 'INSUFFICIENT_STOCK');
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(0);
  });

  it("needs the product's own sku, of a product without options of this store (400 naming cartItems[i].sku)", async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const mug = await simpleProduct(store, 'MUG', 2);
    const foreign = await simpleProduct(other, 'MUG', 2);
    const reply = await t.call(store, 'POST', '/orders', checkout([item(mug, 'CUP', 1), item(foreign, 'MUG', 1), item(mug, 'MUG', 1)]));
    const error = expectError(reply, 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field)).toEqual(['cartItems[0].sku', 'cartItems[1].sku']);
    expect(await stockOf(store, mug)).toBe(2);
    expect(await stockOf(other, foreign)).toBe(2);
  });

  it('100 parallel orders of quantity 1 against a totalStock of 10: exactly 10 created, 90 × 409, stock 0', async () => {
    const store = await t.newStore();
    const mug = await simpleProduct(store, 'MUG', 10);
    const body = checkout([item(mug, 'MUG', 1)]);
    const replies = await Promise.all(Array.from({ length: 100 }, () => t.call(store, 'POST', '/orders', body)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(90);
    expect(await stockOf(store, mug)).toBe(0);
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(10);
  });

  it('parallel orders naming two simple products and a variant in opposite orders never deadlock or oversell', async () => {
    const store = await t.newStore();
    const a = await simpleProduct(store, 'A', 20);
    const b = await simpleProduct(store, 'B', 20);
    const tee = (
      await t.call(store, 'POST', '/products', {
        title: 'Tee',
        options: [{ name: 'Size', values: ['S'] }],
        variants: [{ attributes: { Size: 'S' }, stock: 40, sku: 'TEE-S' }],
      })
    ).body.data;
    const forward = checkout([item(a, 'A', 1), item(tee.id, 'TEE-S', 1), item(b, 'B', 1)]);
    const backward = checkout([item(b, 'B', 1), item(tee.id, 'TEE-S', 1), item(a, 'A', 1)]);
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => t.call(store, 'POST', '/orders', i % 2 ? forward : backward)));
    expect(replies.map((r) => r.status).sort()).toEqual([...Array(20).fill(201), ...Array(10).fill(409)]);
    expect([await stockOf(store, a), await stockOf(store, b)]).toEqual([0, 0]);
    expect((await t.call(store, 'GET', `/products/${tee.id}`)).body.data.variants[0].stock).toBe(20);
  });
});
