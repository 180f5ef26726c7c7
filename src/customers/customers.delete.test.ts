import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

/** DELETE /customers/{id} and DELETE /orders/{id}: undoing a failed migration (CONTRACT §7). */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const orderOf = (userId: string | null) => ({
  cartItems: [{ productId: 'p', title: 'T', price: 1, quantity: 1 }],
  subTotal: 1,
  totalAmount: 1,
  userId,
  createdAt: '2024-01-02T03:04:05.678Z',
});

async function customerWithHistory(store: TestStore) {
  const customer = (
    await t.call(store, 'POST', '/customers', { userName: `u${Math.random()}`, password: '12345678', address: { city: 'A' } })
  ).body.data;
  const addresses = (await t.call(store, 'GET', `/customers/${customer.id}/addresses`)).body.data;
  const order = (await t.call(store, 'POST', '/orders', orderOf(customer.id))).body.data;
  return { customer, address: addresses[0], order };
}

describe('DELETE /customers/{id}', () => {
  it('removes the customer and its addresses; its orders stay, with userId null and a moved updatedAt', async () => {
    const store = await t.newStore();
    const { customer, address, order } = await customerWithHistory(store);
    const other = await customerWithHistory(store);
    const res = await t.call(store, 'DELETE', `/customers/${customer.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: customer.id } });
    expectError(await t.call(store, 'GET', `/customers/${customer.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', `/addresses/${address.id}`), 404, 'NOT_FOUND');
    const kept = (await t.call(store, 'GET', `/orders/${order.id}`)).body.data;
    expect(kept.userId).toBeNull();
    expect(kept.updatedAt > order.updatedAt).toBe(true);
    expect(kept.createdAt).toBe(order.createdAt);
    // another customer's history is untouched
    expect((await t.call(store, 'GET', `/orders/${other.order.id}`)).body.data).toEqual(other.order);
    expect((await t.call(store, 'GET', `/addresses/${other.address.id}`)).status).toBe(200);
    expectError(await t.call(store, 'DELETE', `/customers/${customer.id}`), 404, 'NOT_FOUND');
  });

  it('is 404 for another store’s customer, which stays', async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const { customer } = await customerWithHistory(other);
    expectError(await t.call(store, 'DELETE', `/customers/${customer.id}`), 404, 'NOT_FOUND');
    expect((await t.call(other, 'GET', `/customers/${customer.id}`)).status).toBe(200);
  });

  it('takes part in Idempotency-Key and If-Match', async () => {
    const store = await t.newStore();
    const { customer } = await customerWithHistory(store);
    const url = `/customers/${customer.id}`;
    const stale = await t.call(store, 'DELETE', url, undefined, { 'if-match': '"old"' });
    expectError(stale, 412, 'PRECONDITION_FAILED');
    const etag = String((await t.call(store, 'GET', url)).headers.etag);
    expect(stale.headers.etag).toBe(etag);
    const headers = { 'if-match': etag, 'idempotency-key': 'delete-customer-1' };
    expect((await t.call(store, 'DELETE', url, undefined, headers)).status).toBe(200);
    const again = await t.call(store, 'DELETE', url, undefined, headers);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('needs customers:write', async () => {
    const store = await t.newStore();
    const { customer } = await customerWithHistory(store);
    const reader = (await t.call(store, 'POST', '/api-keys', { name: 'r', scopes: ['customers:read'] })).body.data.key;
    expectError(await t.call(reader, 'DELETE', `/customers/${customer.id}`), 403, 'FORBIDDEN');
  });
});

describe('DELETE /orders/{id}', () => {
  it('removes the order (and only it), answers {id}, then 404', async () => {
    const store = await t.newStore();
    const { customer, order } = await customerWithHistory(store);
    const other = (await t.call(store, 'POST', '/orders', orderOf(null))).body.data;
    const res = await t.call(store, 'DELETE', `/orders/${order.id}`);
    expect(res.body).toEqual({ success: true, data: { id: order.id } });
    expectError(await t.call(store, 'GET', `/orders/${order.id}`), 404, 'NOT_FOUND');
    expect((await t.call(store, 'GET', `/orders/${other.id}`)).status).toBe(200);
    expect((await t.call(store, 'GET', `/customers/${customer.id}`)).status).toBe(200);
    expectError(await t.call(store, 'DELETE', `/orders/${order.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', '/orders/not-an-id'), 404, 'NOT_FOUND');
  });

  it('does not put a decrement order’s stock back', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', { title: 'T', options: [{ name: 'Size', values: ['S'] }] })).body.data;
    const variant = product.variants[0];
    await t.call(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: 3 });
    const cartItems = [{ productId: product.id, title: 'T', price: 1, quantity: 2, sku: variant.sku }];
    const order = (await t.call(store, 'POST', '/orders', { ...orderOf(null), cartItems, inventoryBehaviour: 'decrement' })).body.data;
    expect((await t.call(store, 'DELETE', `/orders/${order.id}`)).status).toBe(200);
    expect((await t.call(store, 'GET', `/products/${product.id}`)).body.data.variants[0].stock).toBe(1);
  });

  it('needs orders:write and honours If-Match', async () => {
    const store = await t.newStore();
    const order = (await t.call(store, 'POST', '/orders', orderOf(null))).body.data;
    const reader = (await t.call(store, 'POST', '/api-keys', { name: 'r', scopes: ['orders:read'] })).body.data.key;
    expectError(await t.call(reader, 'DELETE', `/orders/${order.id}`), 403, 'FORBIDDEN');
    expectError(await t.call(store, 'DELETE', `/orders/${order.id}`, undefined, { 'if-match': '"old"' }), 412, 'PRECONDITION_FAILED');
    expect((await t.call(store, 'DELETE', `/orders/${order.id}`, undefined, { 'if-match': '*' })).status).toBe(200);
  });
});
