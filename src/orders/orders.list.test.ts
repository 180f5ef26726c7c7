import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const cartItems = [{ productId: 'p', title: 'T', price: 1, quantity: 1 }];
const ids = (res: { body: { data: { customOrderId: string }[] } }) => res.body.data.map((o) => o.customOrderId);

async function seed(store: TestStore) {
  const orders = [
    { customOrderId: 'A-1', totalAmount: 30, orderStatus: 'pending', paymentStatus: 'paid', createdAt: '2020-01-01T00:00:00.000Z' },
    {
      customOrderId: 'B-2',
      totalAmount: 10.5,
      orderStatus: 'fulfilled',
      paymentStatus: 'paid',
      contactEmail: 'Buyer@Shop.test',
      createdAt: '2021-01-01T00:00:00.000Z',
    },
    {
      customOrderId: 'C_3',
      totalAmount: 20,
      shippingAddress: { firstName: 'Zoe', lastName: 'Quinn' },
      billingAddress: { firstName: 'Yuri', lastName: 'Gagarin' },
      createdAt: '2022-01-01T00:00:00.000Z',
    },
    { customOrderId: 'D%4', totalAmount: 10.5, orderStatus: 'fulfilled', createdAt: '2023-01-01T00:00:00.000Z' },
  ];
  for (const order of orders) {
    expect((await t.call(store, 'POST', '/orders', { cartItems, subTotal: order.totalAmount, ...order })).status).toBe(201);
  }
}

describe('orders: list', () => {
  it('sorts by createdAt (default newest first) and totalAmount, ties on id', async () => {
    const store = await t.newStore();
    await seed(store);
    const all = await t.call(store, 'GET', '/orders');
    expect(ids(all)).toEqual(['D%4', 'C_3', 'B-2', 'A-1']);
    expect(all.body.pagination).toEqual({ page: 1, limit: 25, total: 4, totalPages: 1, nextCursor: null });
    expect(ids(await t.call(store, 'GET', '/orders?sort=createdAt'))).toEqual(['A-1', 'B-2', 'C_3', 'D%4']);
    expect(ids(await t.call(store, 'GET', '/orders?sort=totalAmount'))).toEqual(['B-2', 'D%4', 'C_3', 'A-1']);
    expect(ids(await t.call(store, 'GET', '/orders?sort=-totalAmount'))).toEqual(['A-1', 'C_3', 'D%4', 'B-2']);
    const page = await t.call(store, 'GET', '/orders?sort=totalAmount&limit=1&page=2');
    expect(ids(page)).toEqual(['D%4']);
    expect(page.body.pagination).toEqual({ page: 2, limit: 1, total: 4, totalPages: 4, nextCursor: expect.any(String) });
    expect((await t.call(store, 'GET', '/orders?page=9')).body.data).toEqual([]);
  });

  it('filters by status and paymentStatus, exactly', async () => {
    const store = await t.newStore();
    await seed(store);
    expect(ids(await t.call(store, 'GET', '/orders?status=fulfilled'))).toEqual(['D%4', 'B-2']);
    expect(ids(await t.call(store, 'GET', '/orders?paymentStatus=paid'))).toEqual(['B-2', 'A-1']);
    expect(ids(await t.call(store, 'GET', '/orders?paymentStatus=pending&status=pending'))).toEqual(['C_3']);
    const both = await t.call(store, 'GET', '/orders?status=fulfilled&paymentStatus=paid&sort=totalAmount');
    expect(ids(both)).toEqual(['B-2']);
    expect(both.body.pagination.total).toBe(1);
    expect(ids(await t.call(store, 'GET', '/orders?status=FULFILLED'))).toEqual([]);
  });

  it('filters by userId', async () => {
    const store = await t.newStore();
    const customer = (await t.call(store, 'POST', '/customers', { userName: 'u', password: '12345678' })).body.data.id;
    await t.call(store, 'POST', '/orders', { cartItems, subTotal: 1, totalAmount: 1, customOrderId: 'MINE', userId: customer });
    await t.call(store, 'POST', '/orders', { cartItems, subTotal: 1, totalAmount: 1, customOrderId: 'GUEST' });
    expect(ids(await t.call(store, 'GET', `/orders?userId=${customer}`))).toEqual(['MINE']);
    expectError(await t.call(store, 'GET', '/orders?userId=nope'), 400, 'VALIDATION_ERROR');
  });

  it('searches order number, contact email, shipping and billing names', async () => {
    const store = await t.newStore();
    await seed(store);
    const search = async (term: string) => ids(await t.call(store, 'GET', `/orders?search=${encodeURIComponent(term)}`));
    expect(await search('a-1')).toEqual(['A-1']);
    expect(await search('shop.TEST')).toEqual(['B-2']);
    expect(await search('zoe')).toEqual(['C_3']);
    expect(await search('QUINN')).toEqual(['C_3']);
    expect(await search('yur')).toEqual(['C_3']);
    expect(await search('gagarin')).toEqual(['C_3']);
    expect(await search('_')).toEqual(['C_3']);
    expect(await search('%')).toEqual(['D%4']);
    expect(await search('nothing')).toEqual([]);
    expect(ids(await t.call(store, 'GET', '/orders?search=-&status=pending'))).toEqual(['A-1']);
  });

  it('rejects bad list parameters', async () => {
    const store = await t.newStore();
    for (const query of ['page=0', 'limit=251', 'sort=price', 'sort=-subTotal', 'limit=abc', `search=${'x'.repeat(201)}`]) {
      const error = expectError(await t.call(store, 'GET', `/orders?${query}`), 400, 'VALIDATION_ERROR');
      expect(error.details[0].in).toBe('query');
    }
  });

  it("never shows another store's orders", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    await seed(a);
    const own = (await t.call(a, 'GET', '/orders')).body.data;
    expect(own.map((o: { customOrderId: string }) => o.customOrderId)).toEqual(['D%4', 'C_3', 'B-2', 'A-1']);
    const { id } = own[0];
    expectError(await t.call(b, 'GET', `/orders/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/orders/${id}`, { orderStatus: 'stolen' }), 404, 'NOT_FOUND');
    expect((await t.call(b, 'GET', '/orders')).body).toEqual({
      success: true,
      data: [],
      pagination: { page: 1, limit: 25, total: 0, totalPages: 0, nextCursor: null },
    });
    expect((await t.call(b, 'GET', '/orders?search=zoe')).body.data).toEqual([]);
    expect((await t.call(b, 'GET', '/orders?status=fulfilled')).body.data).toEqual([]);
    expect((await t.call(a, 'GET', `/orders/${id}`)).body.data.orderStatus).toBe('fulfilled');
  });
});
