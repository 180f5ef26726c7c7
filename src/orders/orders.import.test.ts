import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { feedOf } from '../../test/support/feed.fixtures.js';
import { apiError, fetched, lineError, lineEvents, runLine } from '../../test/support/import-lines.fixtures.js';
import { importOrderLine } from './index.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

const importLine = (store: TestStore, line: unknown) => runLine(t, store, importOrderLine, line);

async function ordersOf(store: TestStore) {
  return (await t.call(store, 'GET', '/orders?limit=250')).body.data as { id: string; customOrderId: string }[];
}

async function newCustomer(store: TestStore, userName = 'buyer'): Promise<string> {
  return (await t.call(store, 'POST', '/customers', { userName, password: 'long-secret-1' })).body.data.id;
}

const order = (customOrderId: string, extra: Record<string, unknown> = {}) => ({
  customOrderId,
  cartItems: [{ productId: 'legacy-42', title: 'Vintage lamp', price: 120.5, quantity: 1, sku: 'LAMP-1' }],
  subTotal: 120.5,
  totalAmount: 130.4,
  shippingCharge: 9.9,
  currency: 'GBP',
  ...extra,
});

describe('orders import: upsert by customOrderId', () => {
  it("a line without userId gets the store's customer of its contactEmail (any case); an explicit null stays a guest", async () => {
    const store = await t.newStore();
    const buyer = (await t.call(store, 'POST', '/customers', { userName: 'ann', email: 'ann@example.com', password: 'long-secret-1' })).body
      .data.id;
    expect(await importLine(store, order('EM-1', { contactEmail: 'Ann@Example.com' }))).toBe('created');
    expect(await importLine(store, order('EM-2', { contactEmail: 'ann@example.com', userId: null }))).toBe('created');
    expect(await importLine(store, order('EM-3', { contactEmail: 'nobody@example.com' }))).toBe('created');
    const byNumber = new Map((await ordersOf(store)).map((one) => [one.customOrderId, one as { userId?: string | null }]));
    expect(byNumber.get('EM-1')?.userId).toBe(buyer);
    expect(byNumber.get('EM-2')?.userId).toBeNull();
    expect(byNumber.get('EM-3')?.userId).toBeNull();
  });

  it('creates as POST would; a known number (any case) is updated as PATCH would, the snapshot kept', async () => {
    const store = await t.newStore();
    const userId = await newCustomer(store);
    expect(await importLine(store, order('OLD-1', { userId, orderStatus: 'paid' }))).toBe('created');
    const [created] = await ordersOf(store);
    expect(await fetched(t, store, `/orders/${created.id}`)).toMatchObject({ customOrderId: 'OLD-1', userId, orderStatus: 'paid' });

    const update = order('old-1', {
      orderStatus: 'fulfilled',
      paymentStatus: 'paid',
      trackingInfo: [{ trackingNumber: 'RM1', shippingCarrier: 'Royal Mail' }],
      refund: { status: 'Requested' },
      // PATCH does not take these: an order's content is its historical snapshot
      totalAmount: 1,
      userId: null,
    });
    expect(await importLine(store, update)).toBe('updated');
    expect(await ordersOf(store)).toHaveLength(1);
    expect(await fetched(t, store, `/orders/${created.id}`)).toMatchObject({
      customOrderId: 'OLD-1',
      userId,
      totalAmount: 130.4,
      orderStatus: 'fulfilled',
      paymentStatus: 'paid',
      trackingInfo: [{ trackingNumber: 'RM1', shippingCarrier: 'Royal Mail', trackingUrl: null }],
      refund: { status: 'Requested', adminRemark: null },
    });
    // refund is merged field by field, as PATCH merges it
    expect(await importLine(store, order('OLD-1', { refund: { adminRemark: 'ok' } }))).toBe('updated');
    expect((await fetched(t, store, `/orders/${created.id}`)).refund).toEqual({ status: 'Requested', adminRemark: 'ok' });
  });

  it('takes a record as GET returns it and, fed back, changes nothing', async () => {
    const store = await t.newStore();
    const userId = await newCustomer(store);
    const created = (
      await t.call(
        store,
        'POST',
        '/orders',
        order('WEB-7', { userId, trackingInfo: [{ trackingNumber: 'X1' }], refund: { status: 'none' } }),
      )
    ).body.data;
    const { outcome, events } = await lineEvents(t, store, importOrderLine, created);
    expect(outcome).toBe('updated');
    expect(events).toEqual([]);
    expect(await fetched(t, store, `/orders/${created.id}`)).toEqual(created);
  });

  it('the same line twice: created, then updated with nothing changed', async () => {
    const store = await t.newStore();
    const line = order('OLD-2', {
      orderStatus: 'shipped',
      trackingInfo: [{ trackingNumber: 'T2', trackingUrl: 'https://track.example/T2' }],
    });
    expect(await importLine(store, line)).toBe('created');
    const [created] = await ordersOf(store);
    const first = await fetched(t, store, `/orders/${created.id}`);
    const { outcome, events } = await lineEvents(t, store, importOrderLine, line);
    expect(outcome).toBe('updated');
    expect(events).toEqual([]);
    expect(await fetched(t, store, `/orders/${created.id}`)).toEqual(first);
    expect(await ordersOf(store)).toHaveLength(1);
  });
});

describe('orders import: errors are the API’s', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['no cart items and a bad currency', order('E-1', { cartItems: [], currency: 'euro' })],
    ['a string for a number', order('E-2', { subTotal: '12' })],
    ['a cart item without title', order('E-3', { cartItems: [{ productId: 'p', price: 1, quantity: 1 }] })],
    ['a userId naming no customer', order('E-4', { userId: '0123456789abcdef01234567' })],
    ['a decrement order naming no variant', order('E-5', { inventoryBehaviour: 'decrement' })],
  ];
  for (const [name, body] of bad) {
    it(`${name}: the code and details POST /orders answers`, async () => {
      const store = await t.newStore();
      expect(await lineError(t, store, importOrderLine, body)).toEqual(await apiError(t, store, 'POST', '/orders', body));
      expect(await ordersOf(store)).toEqual([]);
    });
  }

  it('a line without customOrderId is refused: a generated number would create it again on every import', async () => {
    const store = await t.newStore();
    const { customOrderId, ...numberless } = order('unused');
    for (const line of [numberless, { ...numberless, customOrderId: null }]) {
      expect(await lineError(t, store, importOrderLine, line)).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        details: [{ field: 'customOrderId', in: 'body', message: expect.stringContaining('key') }],
      });
    }
    expect(await ordersOf(store)).toEqual([]);
  });

  it("another store's customer is refused as userId, as the API does; another store's number is no match", async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const theirs = await newCustomer(other);
    const body = order('X-1', { userId: theirs });
    const error = await lineError(t, store, importOrderLine, body);
    expect(error).toEqual(await apiError(t, store, 'POST', '/orders', body));
    expect(error.details.map((detail) => detail.field)).toEqual(['userId']);
    await t.call(other, 'POST', '/orders', order('X-2', { orderStatus: 'theirs' }));
    expect(await importLine(store, order('X-2', { orderStatus: 'mine' }))).toBe('created');
    const [otherOrder] = await ordersOf(other);
    expect((await fetched(t, other, `/orders/${otherOrder.id}`)).orderStatus).toBe('theirs');
  });
});

describe('orders import: events', () => {
  it('appends order.created / order.updated with the record as GET returns it; a refused line none', async () => {
    const store = await t.newStore();
    const created = await lineEvents(t, store, importOrderLine, order('EV-1'));
    const [imported] = await ordersOf(store);
    expect(created.events.map((event) => event.type)).toEqual(['order.created']);
    expect(created.events[0].data).toEqual(await fetched(t, store, `/orders/${imported.id}`));
    const updated = await lineEvents(t, store, importOrderLine, order('EV-1', { paymentStatus: 'paid' }));
    expect(updated.events.map((event) => event.type)).toEqual(['order.updated']);
    expect(updated.events[0].data).toEqual(await fetched(t, store, `/orders/${imported.id}`));
    const { eventsOf } = feedOf(() => t);
    const refused = await eventsOf(store, () => expect(importLine(store, order('EV-2', { subTotal: -1 }))).rejects.toThrow());
    expect(refused).toEqual([]);
  });

  it('a decrement order takes stock and appends product.updated, as POST /orders does', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', { title: 'Lamp', price: 10, options: [{ name: 'Size', values: ['S'] }] }))
      .body.data;
    const [variant] = (await t.call(store, 'GET', `/products/${product.id}/variants`)).body.data;
    await t.call(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: 5 });
    const line = order('DEC-1', {
      inventoryBehaviour: 'decrement',
      cartItems: [{ productId: product.id, sku: variant.sku, title: 'Lamp', price: 10, quantity: 2 }],
    });
    const { events } = await lineEvents(t, store, importOrderLine, line);
    expect(events.map((event) => [event.type, event.data.id])).toEqual([
      ['order.created', expect.any(String)],
      ['inventory.updated', expect.stringMatching(new RegExp(`^${variant.id}`))],
      ['product.updated', product.id],
    ]);
    expect((await t.call(store, 'GET', `/products/${product.id}/variants`)).body.data[0].stock).toBe(3);
    // Re-importing it takes no stock again: the known order is only updated as PATCH would.
    expect(await importLine(store, line)).toBe('updated');
    expect((await t.call(store, 'GET', `/products/${product.id}/variants`)).body.data[0].stock).toBe(3);
  }, 120_000);
});
