import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';

// Generated numbers are scripted here so a collision with an existing number can be forced.
const script = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('./order-numbers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./order-numbers.js')>();
  return { generateOrderNumber: () => script.queue.shift() ?? actual.generateOrderNumber() };
});

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const body = { cartItems: [{ productId: 'p', title: 'T', price: 1, quantity: 1 }], subTotal: 1, totalAmount: 1 };

describe('generated order numbers', () => {
  it('skip a number a caller already supplied, and one generated before', async () => {
    const store = await t.newStore();
    expect((await t.call(store, 'POST', '/orders', { ...body, customOrderId: 'ORD-TAKEN00001' })).status).toBe(201);
    script.queue.push('ORD-GEN0000001');
    expect((await t.call(store, 'POST', '/orders', body)).body.data.customOrderId).toBe('ORD-GEN0000001');
    script.queue.push('ord-taken00001', 'ORD-GEN0000001', 'ORD-FREE000001');
    const res = await t.call(store, 'POST', '/orders', body);
    expect(res.status).toBe(201);
    expect(res.body.data.customOrderId).toBe('ORD-FREE000001');
    expect(script.queue).toEqual([]);
  });

  it('fail cleanly (500, nothing stored) when every attempt collides', async () => {
    const store = await t.newStore();
    await t.call(store, 'POST', '/orders', { ...body, customOrderId: 'ORD-ALWAYS0001' });
    script.queue.push(...Array(8).fill('ORD-ALWAYS0001'));
    const res = await t.call(store, 'POST', '/orders', body);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(1);
  });
});
