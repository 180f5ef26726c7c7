import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const cartItems = [{ productId: 'legacy-42', title: 'Vintage lamp', price: 120.5, quantity: 1, sku: 'LAMP-1' }];

async function newCustomer(store: TestStore, userName = 'buyer'): Promise<string> {
  return (await t.call(store, 'POST', '/customers', { userName, password: '12345678' })).body.data.id;
}

/** What a migration tool sends: the order as it was in the old shop. */
function legacyOrder(number: number, userId: string) {
  return {
    customOrderId: `OLD-${number}`,
    userId,
    createdAt: `201${number}-06-15T12:30:45.678Z`,
    cartItems,
    subTotal: 120.5,
    shippingCharge: 9.9,
    taxAmount: 0,
    totalAmount: 130.4,
    currency: 'GBP',
    orderStatus: 'fulfilled',
    paymentStatus: 'paid',
    paymentMethod: 'paypal',
    trackingInfo: [{ trackingNumber: `RM${number}`, shippingCarrier: 'Royal Mail', trackingUrl: null }],
    refund: { status: 'Approved', adminRemark: 'returned' },
  };
}

describe('orders: migration', () => {
  it('imports history as it was, and a re-run is refused record by record', async () => {
    const store = await t.newStore();
    const userId = await newCustomer(store);
    const batch = [1, 2, 3].map((n) => legacyOrder(n, userId));
    for (const order of batch) {
      const res = await t.call(store, 'POST', '/orders', order);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject(order);
      expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThan(Date.parse(order.createdAt));
    }
    for (const order of batch) {
      const error = expectError(await t.call(store, 'POST', '/orders', order), 400, 'DUPLICATE_VALUE');
      expect(error.details).toEqual([{ field: 'customOrderId', in: 'body', message: expect.any(String) }]);
    }
    // Order numbers are unique case-insensitively.
    expectError(await t.call(store, 'POST', '/orders', { ...batch[0], customOrderId: 'old-1' }), 400, 'DUPLICATE_VALUE');
    const list = await t.call(store, 'GET', `/orders?userId=${userId}&sort=createdAt`);
    expect(list.body.data.map((o: { createdAt: string }) => o.createdAt)).toEqual(batch.map((o) => o.createdAt));
    // Another store has its own numbering.
    const other = await t.newStore();
    expect((await t.call(other, 'POST', '/orders', { ...batch[0], userId: null })).status).toBe(201);
  });

  it('checks createdAt and userId, naming both at once', async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const foreign = await newCustomer(other);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const base = legacyOrder(1, foreign);
    const error = expectError(await t.call(store, 'POST', '/orders', { ...base, createdAt: future }), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['createdAt', 'userId']);
    for (const userId of ['0123456789abcdef01234567', 'not-an-id']) {
      const bad = expectError(await t.call(store, 'POST', '/orders', { ...base, customOrderId: null, userId }), 400, 'VALIDATION_ERROR');
      expect(bad.details.map((d) => d.field)).toEqual(['userId']);
    }
    for (const createdAt of ['1969-07-20T20:17:00Z', 'last year', '2020-01-01T00:00:00']) {
      const bad = expectError(await t.call(store, 'POST', '/orders', { ...base, userId: null, createdAt }), 400, 'VALIDATION_ERROR');
      expect(bad.details.map((d) => d.field)).toEqual(['createdAt']);
    }
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(0);
    const now = await t.call(store, 'POST', '/orders', { ...base, userId: null, createdAt: new Date().toISOString() });
    expect(now.status).toBe(201);
  });

  it('20 parallel creates with the same customOrderId give exactly one 201', async () => {
    const store = await t.newStore();
    const body = { cartItems, subTotal: 1, totalAmount: 1, customOrderId: 'RACE-1' };
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.call(store, 'POST', '/orders', body)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 201)) {
      expect(expectError(reply, 400, 'DUPLICATE_VALUE').details[0].field).toBe('customOrderId');
    }
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(1);
  });

  it('20 parallel creates without a customOrderId get 20 distinct ORD- numbers', async () => {
    const store = await t.newStore();
    const body = { cartItems, subTotal: 1, totalAmount: 1 };
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.call(store, 'POST', '/orders', body)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = new Set(replies.map((r) => r.body.data.customOrderId));
    expect(numbers.size).toBe(20);
    for (const number of numbers) expect(number).toMatch(/^ORD-[A-Z0-9]{10}$/);
  });
});
