import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importAndRun } from '../../test/support/jobs.fixtures.js';

// CONTRACT: export, then import into another store, reproduces the catalog (ids and timestamps aside), and a
// second import of the same export creates nothing.

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t?.close());

async function exported(store: TestStore, resource: string): Promise<Record<string, unknown>[]> {
  const reply = await t.call(store, 'GET', `/exports/${resource}`);
  expect(reply.status).toBe(200);
  const text = typeof reply.body === 'string' ? reply.body : `${JSON.stringify(reply.body)}\n`;
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const IGNORED = new Set(['id', 'createdAt', 'updatedAt', 'productId']);

/** The record without what differs between stores by construction: ids and timestamps, at any depth. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key]) => !IGNORED.has(key));
  return Object.fromEntries(entries.map(([key, inner]) => [key, comparable(inner)]));
}

const byHandle = (records: Record<string, unknown>[]) =>
  records.map(comparable).sort((a, b) => String((a as { handle: string }).handle).localeCompare(String((b as { handle: string }).handle)));

describe('export, then import into another store', () => {
  it('reproduces the products (options, variants with prices, sale prices, stock and SKUs); a re-import creates none', async () => {
    const source = await t.newStore();
    const tee = await t.call(source, 'POST', '/products', {
      title: 'Classic Tee',
      description: 'Soft cotton',
      price: 20,
      options: [
        { name: 'Size', values: ['S', 'M', 'L'] },
        { name: 'Color', values: ['Red', 'Blue', 'Green'] },
      ],
      variants: [{ attributes: { Size: 'M', Color: 'Blue' }, price: 22, salePrice: 25, stock: 5, sku: 'TEE-M-BLUE' }],
    });
    expect(tee.status, JSON.stringify(tee.body)).toBe(201);
    expect((await t.call(source, 'POST', '/products', { title: 'Mug', price: 9.5, badge: 'New' })).status).toBe(201);

    const lines = await exported(source, 'products');
    expect(lines).toHaveLength(2);
    const target = await t.newStore();
    const first = await importAndRun(t, target, 'products', lines);
    expect(first).toMatchObject({ status: 'succeeded', created: 2, updated: 0, failed: 0 });
    expect(byHandle(await exported(target, 'products'))).toEqual(byHandle(lines));

    const again = await importAndRun(t, target, 'products', lines);
    expect(again).toMatchObject({ status: 'succeeded', created: 0, updated: 2, failed: 0 });
    expect(byHandle(await exported(target, 'products'))).toEqual(byHandle(lines));
  });
});

describe('export, then import into another store: catalog fields, customers, orders', () => {
  it('reproduces vendor, type, tags, custom fields, a simple product’s own sku, barcode, weight and stock, and variant fields', async () => {
    const source = await t.newStore();
    const simple = await t.call(source, 'POST', '/products', {
      title: 'Gift Card',
      vendor: 'Acme',
      productType: 'Cards',
      tags: ['Gift', 'Digital'],
      sku: 'GC-1',
      barcode: '0001',
      weightGrams: 0,
      totalStock: 12,
      customFields: { 'shopify.Gift Card': true, 'shopify.Google Shopping / MPN': 'G-1', rank: 2.5 },
    });
    expect(simple.status, JSON.stringify(simple.body)).toBe(201);
    const tee = await t.call(source, 'POST', '/products', {
      title: 'Tee',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        {
          attributes: { Size: 'M' },
          barcode: '4006381333931',
          weightGrams: 180.5,
          image: 'https://cdn.test/m.jpg',
          customFields: { a: 'b' },
        },
      ],
    });
    expect(tee.status, JSON.stringify(tee.body)).toBe(201);
    const lines = await exported(source, 'products');
    // the export lines carry every field (not only equal on both sides)
    expect(lines.find((line) => line.handle === 'gift-card')).toMatchObject({
      vendor: 'Acme',
      productType: 'Cards',
      tags: ['Gift', 'Digital'],
      sku: 'GC-1',
      barcode: '0001',
      weightGrams: 0,
      totalStock: 12,
      customFields: { 'shopify.Gift Card': true, 'shopify.Google Shopping / MPN': 'G-1', rank: 2.5 },
    });
    expect((lines.find((line) => line.handle === 'tee') as { variants: unknown[] }).variants[1]).toMatchObject({
      barcode: '4006381333931',
      weightGrams: 180.5,
      image: 'https://cdn.test/m.jpg',
      customFields: { a: 'b' },
    });
    const target = await t.newStore();
    expect(await importAndRun(t, target, 'products', lines)).toMatchObject({ status: 'succeeded', created: 2, failed: 0 });
    expect(byHandle(await exported(target, 'products'))).toEqual(byHandle(lines));
    expect(await importAndRun(t, target, 'products', lines)).toMatchObject({ status: 'succeeded', created: 0, updated: 2, failed: 0 });
    expect(byHandle(await exported(target, 'products'))).toEqual(byHandle(lines));
  });

  it('customers come across without passwords, orders with their dates; a re-import creates none', async () => {
    const source = await t.newStore();
    const customer = await t.call(source, 'POST', '/customers', {
      userName: 'ada',
      password: 'long-secret-1',
      email: 'ada@example.test',
      customFields: { 'shopify.Tags': 'vip' },
    });
    expect(customer.status).toBe(201);
    const order = await t.call(source, 'POST', '/orders', {
      customOrderId: '#1001',
      createdAt: '2021-06-01T10:00:00.000Z',
      cartItems: [{ productId: 'legacy', title: 'Lamp', price: 10, quantity: 1 }],
      subTotal: 10,
      totalAmount: 10,
      customFields: { 'shopify.Payment Method': 'manual' },
    });
    expect(order.status).toBe(201);
    expect((await exported(source, 'customers'))[0].customFields).toEqual({ 'shopify.Tags': 'vip' });
    expect((await exported(source, 'orders'))[0].customFields).toEqual({ 'shopify.Payment Method': 'manual' });
    const target = await t.newStore();
    for (const resource of ['customers', 'orders']) {
      const lines = await exported(source, resource);
      expect(await importAndRun(t, target, resource, lines)).toMatchObject({ status: 'succeeded', created: 1, failed: 0 });
      expect((await exported(target, resource)).map(comparable)).toEqual(lines.map(comparable));
      expect(await importAndRun(t, target, resource, lines)).toMatchObject({ status: 'succeeded', created: 0, updated: 1, failed: 0 });
    }
    expect((await exported(target, 'orders'))[0].createdAt).toBe('2021-06-01T10:00:00.000Z');
  });
});

describe('a line without its key', () => {
  it('is refused for every resource (re-running the file could never match it)', async () => {
    const store = await t.newStore();
    const job = await importAndRun(t, store, 'products', [{ title: 'No handle', price: 1 }]);
    expect(job).toMatchObject({ status: 'succeeded', created: 0, failed: 1 });
    const errors = (await t.call(store, 'GET', `/jobs/${job.id}/errors`)).body.data;
    expect(errors[0]).toMatchObject({ line: 1, code: 'VALIDATION_ERROR' });
    expect(errors[0].details[0]).toMatchObject({ field: 'handle' });
  });
});
