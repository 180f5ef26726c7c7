import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const FIELDS = [
  'billingAddress',
  'cartItems',
  'contactEmail',
  'createdAt',
  'currency',
  'customFields',
  'customOrderId',
  'id',
  'inventoryBehaviour',
  'orderStatus',
  'paymentMethod',
  'paymentStatus',
  'refund',
  'restockedAt',
  'shippingAddress',
  'shippingCharge',
  'subTotal',
  'taxAmount',
  'totalAmount',
  'trackingInfo',
  'updatedAt',
  'userId',
];
const item = { productId: 'p1', title: 'Tee', price: 19.99, quantity: 2 };
const minimal = { cartItems: [item], subTotal: 39.98, totalAmount: 39.98 };
const address = { firstName: 'Jane', lastName: 'Doe', address1: '1 Main St', city: 'Springfield', zip: '12345', country: 'US' };

describe('orders: create and read', () => {
  it('creates with defaults; every field present, null or [] when unset', async () => {
    const store = await t.newStore();
    const res = await t.call(
      store,
      'POST',
      '/orders',
      { ...minimal, ignored: 1, cartItems: [{ ...item, extra: 'x' }] },
      { prefer: 'handling=lenient' },
    );
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(Object.keys(order).sort()).toEqual(FIELDS);
    expect(order).toMatchObject({
      userId: null,
      cartItems: [{ ...item, sku: null }],
      shippingAddress: null,
      billingAddress: null,
      contactEmail: null,
      orderStatus: 'pending',
      paymentMethod: null,
      paymentStatus: 'pending',
      subTotal: 39.98,
      shippingCharge: null,
      taxAmount: null,
      totalAmount: 39.98,
      currency: 'USD',
      trackingInfo: [],
      refund: null,
    });
    expect(order.customOrderId).toMatch(/^ORD-[A-Z0-9]+$/);
    expect(order.createdAt).toMatch(ISO_MS);
    expect((await t.call(store, 'GET', `/orders/${order.id}`)).body).toEqual({ success: true, data: order });
  });

  it('creates with every field and returns each address with all its fields', async () => {
    const store = await t.newStore();
    const body = {
      ...minimal,
      cartItems: [{ ...item, sku: 'TEE-M' }],
      customOrderId: 'WEB-1001',
      shippingAddress: address,
      billingAddress: { ...address, address2: 'Apt 4', state: 'IL', phone: '555' },
      contactEmail: 'jane@example.test',
      orderStatus: 'fulfilled',
      paymentMethod: 'card',
      paymentStatus: 'paid',
      shippingCharge: 5,
      taxAmount: 3.2,
      totalAmount: 48.18,
      currency: 'EUR',
    };
    const res = await t.call(store, 'POST', '/orders', body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ ...body, shippingAddress: { ...address, address2: null, state: null, phone: null } });
    expect(Object.keys(res.body.data.billingAddress).sort()).toEqual(
      ['address1', 'address2', 'city', 'country', 'firstName', 'lastName', 'phone', 'state', 'zip'].sort(),
    );
  });

  it('keeps money exact', async () => {
    const store = await t.newStore();
    const cartItems = [
      { productId: 'a', title: 'A', price: 0.1, quantity: 1 },
      { productId: 'b', title: 'B', price: 0.2, quantity: 1 },
      { productId: 'c', title: 'C', price: 19.99, quantity: 3 },
    ];
    const body = { cartItems, subTotal: 60.27, shippingCharge: 0.3, taxAmount: 0.07, totalAmount: 1234567.89 };
    const res = await t.call(store, 'POST', '/orders', body);
    expect(res.body.data).toMatchObject(body);
    const text = JSON.stringify((await t.call(store, 'GET', `/orders/${res.body.data.id}`)).body);
    expect(text).toContain('"subTotal":60.27');
    expect(text).toContain('"totalAmount":1234567.89');
    expect(text).toContain('"price":19.99');
    expect(text).not.toMatch(/\d\.\d*0000\d|9999\d/);
    const row = await t.database.db
      .selectFrom('orders')
      .select((eb) => [eb.cast<string>('sub_total', 'text').as('s'), eb.cast<string>('shipping_charge', 'text').as('c')])
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ s: '60.27', c: '0.3' });
  });

  it('names every wrong cart item field at once', async () => {
    const store = await t.newStore();
    const cartItems = [{ productId: '', title: 5, price: '12', quantity: 1.5 }, { price: -1, quantity: 0 }, item];
    const error = expectError(await t.call(store, 'POST', '/orders', { ...minimal, cartItems }), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual([
      'cartItems[0].price',
      'cartItems[0].productId',
      'cartItems[0].quantity',
      'cartItems[0].title',
      'cartItems[1].price',
      'cartItems[1].productId',
      'cartItems[1].quantity',
      'cartItems[1].title',
    ]);
    expect(error.details.every((d) => d.in === 'body')).toBe(true);
  });

  it('rejects every other wrong field, all at once, and stores nothing', async () => {
    const store = await t.newStore();
    const missing = expectError(await t.call(store, 'POST', '/orders', {}), 400, 'VALIDATION_ERROR');
    expect(missing.details.map((d) => d.field).sort()).toEqual(['cartItems', 'subTotal', 'totalAmount']);
    const bad = {
      cartItems: [],
      subTotal: '12',
      totalAmount: -1,
      shippingCharge: -0.01,
      taxAmount: 'x',
      currency: 'usd',
      contactEmail: 'nope',
      orderStatus: ' ',
      paymentStatus: 3,
      customOrderId: '',
      shippingAddress: { zip: 'x'.repeat(65) },
      billingAddress: 'street',
    };
    const error = expectError(await t.call(store, 'POST', '/orders', bad), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(
      [
        'billingAddress',
        'cartItems',
        'contactEmail',
        'currency',
        'customOrderId',
        'orderStatus',
        'paymentStatus',
        'shippingAddress.zip',
        'shippingCharge',
        'subTotal',
        'taxAmount',
        'totalAmount',
      ].sort(),
    );
    const many = Array.from({ length: 1001 }, () => item);
    expectError(await t.call(store, 'POST', '/orders', { ...minimal, cartItems: many }), 400, 'VALIDATION_ERROR');
    expect((await t.call(store, 'POST', '/orders', { ...minimal, cartItems: many.slice(1) })).status).toBe(201);
    expectError(
      await t.call(store, 'POST', '/orders', { ...minimal, cartItems: [{ ...item, title: 'x'.repeat(1001) }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(1);
  });

  it('answers 404 for unknown ids and 405 with Allow for PUT', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/orders', minimal)).body.data;
    expectError(await t.call(store, 'GET', '/orders/0123456789abcdef01234567'), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', '/orders/ORD-123'), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'PATCH', '/orders/0123456789abcdef01234567', { orderStatus: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', '/orders/0123456789abcdef01234567'), 404, 'NOT_FOUND');
    const put = await t.call(store, 'PUT', `/orders/${id}`, minimal);
    expectError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(String(put.headers.allow).split(', ')).toEqual(expect.arrayContaining(['GET', 'PATCH', 'DELETE']));
    expect(String((await t.call(store, 'DELETE', '/orders')).headers.allow)).toContain('POST');
    expect((await t.call(store, 'GET', `/orders/${id}`)).status).toBe(200);
  });

  it('needs orders:read to read and orders:write to write', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/orders', minimal)).body.data;
    const reader = (await t.call(store, 'POST', '/api-keys', { name: 'r', scopes: ['orders:read'] })).body.data.key;
    const customers = (await t.call(store, 'POST', '/api-keys', { name: 'c', scopes: ['customers:read', 'customers:write'] })).body.data
      .key;
    const writer = (await t.call(store, 'POST', '/api-keys', { name: 'w', scopes: ['orders:write'] })).body.data.key;
    expect((await t.call(reader, 'GET', `/orders/${id}`)).status).toBe(200);
    expect((await t.call(reader, 'GET', '/orders')).status).toBe(200);
    expectError(await t.call(reader, 'POST', '/orders', minimal), 403, 'FORBIDDEN');
    expectError(await t.call(reader, 'PATCH', `/orders/${id}`, { orderStatus: 'x' }), 403, 'FORBIDDEN');
    expectError(await t.call(customers, 'GET', '/orders'), 403, 'FORBIDDEN');
    expect((await t.call(writer, 'POST', '/orders', minimal)).status).toBe(201);
  });
});
