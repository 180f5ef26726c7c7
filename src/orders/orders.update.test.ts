import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const order = { cartItems: [{ productId: 'p', title: 'T', price: 9.99, quantity: 1 }], subTotal: 9.99, totalAmount: 9.99 };
const ups = { trackingNumber: '1Z999', shippingCarrier: 'UPS', trackingUrl: 'https://ups.test/1Z999' };
const dhl = { trackingNumber: 'JD014' };
const LENIENT = { prefer: 'handling=lenient' };

async function newOrder(store: TestStore) {
  const res = await t.call(store, 'POST', '/orders', order);
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('orders: update', () => {
  it('sets statuses and leaves everything else as it was', async () => {
    const store = await t.newStore();
    const created = await newOrder(store);
    const res = await t.call(store, 'PATCH', `/orders/${created.id}`, { orderStatus: 'fulfilled', paymentStatus: 'paid', totalAmount: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...created, orderStatus: 'fulfilled', paymentStatus: 'paid', updatedAt: res.body.data.updatedAt });
    expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((await t.call(store, 'GET', `/orders/${created.id}`)).body.data).toEqual(res.body.data);
  });

  it('replaces trackingInfo as a whole', async () => {
    const store = await t.newStore();
    const { id } = await newOrder(store);
    const unknown = await t.call(store, 'PATCH', `/orders/${id}`, { trackingInfo: [ups, { ...dhl, extra: 'x' }] });
    expect(expectError(unknown, 400, 'VALIDATION_ERROR').details.map((d) => d.field)).toEqual(['trackingInfo[1].extra']);
    const two = await t.call(store, 'PATCH', `/orders/${id}`, { trackingInfo: [ups, { ...dhl, extra: 'dropped' }] }, LENIENT);
    expect(two.body.data.trackingInfo).toEqual([ups, { ...dhl, shippingCarrier: null, trackingUrl: null }]);
    const one = await t.call(store, 'PATCH', `/orders/${id}`, { trackingInfo: [dhl] });
    expect(one.body.data.trackingInfo).toEqual([{ ...dhl, shippingCarrier: null, trackingUrl: null }]);
    const kept = await t.call(store, 'PATCH', `/orders/${id}`, { orderStatus: 'shipped' });
    expect(kept.body.data.trackingInfo).toHaveLength(1);
    expect((await t.call(store, 'PATCH', `/orders/${id}`, { trackingInfo: [] })).body.data.trackingInfo).toEqual([]);
  });

  it('merges refund field by field', async () => {
    const store = await t.newStore();
    const { id } = await newOrder(store);
    const patch = async (refund: unknown, headers = {}) =>
      (await t.call(store, 'PATCH', `/orders/${id}`, { refund }, headers)).body.data?.refund;
    expect(await patch({})).toBeNull();
    expect((await t.call(store, 'POST', '/orders', { ...order, refund: {} })).body.data.refund).toBeNull();
    expect((await t.call(store, 'POST', '/orders', { ...order, refund: { status: 'Open' } })).body.data.refund).toEqual({
      status: 'Open',
      adminRemark: null,
    });
    expect(await patch({ status: 'Requested' })).toEqual({ status: 'Requested', adminRemark: null });
    expect(await patch({ adminRemark: 'damaged box' })).toEqual({ status: 'Requested', adminRemark: 'damaged box' });
    expect(await patch({ status: 'Approved', ignored: 1 })).toBeUndefined();
    expect(await patch({ status: 'Approved', ignored: 1 }, LENIENT)).toEqual({ status: 'Approved', adminRemark: 'damaged box' });
    expect((await t.call(store, 'PATCH', `/orders/${id}`, { paymentStatus: 'refunded' })).body.data.refund).toEqual({
      status: 'Approved',
      adminRemark: 'damaged box',
    });
    expect(await patch({ adminRemark: null })).toEqual({ status: 'Approved', adminRemark: null });
    expect(await patch(null)).toBeNull();
  });

  // PGlite runs one transaction at a time: only PostgreSQL interleaves the two merges.
  it.skipIf(engine !== 'postgres')('keeps concurrent refund merges of different fields', async () => {
    const store = await t.newStore();
    const { id } = await newOrder(store);
    await Promise.all([
      t.call(store, 'PATCH', `/orders/${id}`, { refund: { status: 'Approved' } }),
      t.call(store, 'PATCH', `/orders/${id}`, { refund: { adminRemark: 'ok' } }),
    ]);
    expect((await t.call(store, 'GET', `/orders/${id}`)).body.data.refund).toEqual({ status: 'Approved', adminRemark: 'ok' });
  });

  it('accepts a fetched order sent back unchanged', async () => {
    const store = await t.newStore();
    const { id } = await newOrder(store);
    const updated = (await t.call(store, 'PATCH', `/orders/${id}`, { trackingInfo: [ups], refund: { status: 'Approved' } })).body.data;
    const roundTrip = await t.call(store, 'PATCH', `/orders/${id}`, updated);
    expect(roundTrip.status).toBe(200);
    expect({ ...roundTrip.body.data, updatedAt: 0 }).toEqual({ ...updated, updatedAt: 0 });
  });

  it('rejects bad input with one detail per wrong field and changes nothing', async () => {
    const store = await t.newStore();
    const created = await newOrder(store);
    const bad = {
      orderStatus: 5,
      paymentStatus: '',
      trackingInfo: [{ shippingCarrier: 'UPS' }, { trackingNumber: 7 }],
      refund: { status: 1 },
    };
    const error = expectError(await t.call(store, 'PATCH', `/orders/${created.id}`, bad), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual([
      'orderStatus',
      'paymentStatus',
      'refund.status',
      'trackingInfo[0].trackingNumber',
      'trackingInfo[1].trackingNumber',
    ]);
    expectError(await t.call(store, 'PATCH', `/orders/${created.id}`, { trackingInfo: null }), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'PATCH', `/orders/${created.id}`, { refund: 'Approved' }), 400, 'VALIDATION_ERROR');
    const tooMany = Array.from({ length: 101 }, () => dhl);
    expectError(await t.call(store, 'PATCH', `/orders/${created.id}`, { trackingInfo: tooMany }), 400, 'VALIDATION_ERROR');
    expectError(
      await t.call(store, 'PATCH', `/orders/${created.id}`, { refund: { adminRemark: 'x'.repeat(10_001) } }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await t.call(store, 'GET', `/orders/${created.id}`)).body.data).toEqual(created);
  });
});
