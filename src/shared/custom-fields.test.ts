import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { fetched, runLine } from '../../test/support/import-lines.fixtures.js';
import { importCollectionLine } from '../collections/index.js';
import { importCustomerLine } from '../customers/index.js';
import { importOrderLine } from '../orders/index.js';

/**
 * Custom fields of collections, customers and orders (products and variants: products.catalog-fields.test.ts):
 * the same rules on every resource — POST drops null values, PATCH merges key by key and removes a key sent
 * as null, limits named by field — through the API and through import lines.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterAll(() => t.close());

interface Resource {
  path: string;
  create: Record<string, unknown>;
}

const RESOURCES: Record<string, Resource> = {
  collections: { path: '/collections', create: { title: 'Summer' } },
  customers: { path: '/customers', create: { userName: 'ada', password: 'long-secret-1' } },
  orders: {
    path: '/orders',
    create: { cartItems: [{ productId: 'p', title: 'Lamp', price: 10, quantity: 1 }], subTotal: 10, totalAmount: 10 },
  },
};

const fieldsOf = (reply: { body: { error: { details: { field: string }[] } } }) => reply.body.error.details.map((d) => d.field).sort();

describe.each(Object.entries(RESOURCES))('%s: customFields', (_name, resource) => {
  it('POST keeps them (nulls dropped), PATCH merges key by key, GET and the list show them', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', resource.path, { ...resource.create, customFields: { b: 'x', a: 1, c: true, gone: null } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.customFields).toEqual({ a: 1, b: 'x', c: true });
    const { id } = created.body.data;
    const patched = await t.call(store, 'PATCH', `${resource.path}/${id}`, { customFields: { a: null, b: 'y', d: 2.5 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.customFields).toEqual({ b: 'y', c: true, d: 2.5 });
    expect(patched.headers.etag).not.toBe(created.headers.etag);
    expect((await fetched(t, store, `${resource.path}/${id}`)).customFields).toEqual({ b: 'y', c: true, d: 2.5 });
    expect((await t.call(store, 'GET', resource.path)).body.data[0].customFields).toEqual({ b: 'y', c: true, d: 2.5 });
    const untouched = await t.call(store, 'PATCH', `${resource.path}/${id}`, {});
    expect(untouched.body.data.customFields).toEqual({ b: 'y', c: true, d: 2.5 });
  });

  it('a record without them shows {}', async () => {
    const store = await t.newStore();
    expect((await t.call(store, 'POST', resource.path, resource.create)).body.data.customFields).toEqual({});
  });

  it('refuses a value that is not a string, number or boolean, a bad key, too many keys or bytes, naming the field', async () => {
    const store = await t.newStore();
    const cases: [unknown, string][] = [
      [{ a: { b: 1 } }, 'customFields.a'],
      [{ ['k'.repeat(129)]: 1 }, 'customFields'],
      [Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])), 'customFields'],
      [{ big: 'x'.repeat(66_000) }, 'customFields'],
      ['text', 'customFields'],
    ];
    for (const [customFields, field] of cases) {
      const reply = await t.call(store, 'POST', resource.path, { ...resource.create, customFields });
      expectError(reply, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(reply)).toEqual([field]);
    }
    // the limit holds on the merged result: 150 stored + 60 new keys is too many
    const half = (from: number, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${from + i}`, i]));
    const { id } = (await t.call(store, 'POST', resource.path, { ...resource.create, customFields: half(0, 150) })).body.data;
    const merged = await t.call(store, 'PATCH', `${resource.path}/${id}`, { customFields: half(150, 60) });
    expectError(merged, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(merged)).toEqual(['customFields']);
    expect(Object.keys((await fetched(t, store, `${resource.path}/${id}`)).customFields)).toHaveLength(150);
  });
});

describe('customFields in import lines', () => {
  const cases: [string, Parameters<typeof runLine>[2], Record<string, unknown>, string][] = [
    [
      'collections',
      importCollectionLine({ media: undefined as never, config: { mediaMaxBytes: 1 } }),
      { title: 'Sale', handle: 'sale' },
      '/collections',
    ],
    ['customers', importCustomerLine, { userName: 'bob', password: 'long-secret-1' }, '/customers'],
    [
      'orders',
      importOrderLine,
      { customOrderId: 'OLD-1', cartItems: [{ productId: 'p', title: 'Lamp', price: 10, quantity: 1 }], subTotal: 10, totalAmount: 10 },
      '/orders',
    ],
  ];
  it.each(cases)('%s: a new line keeps them, a known one merges them as PATCH does', async (_name, handler, line, path) => {
    const store = await t.newStore();
    expect(await runLine(t, store, handler, { ...line, customFields: { a: 1, b: 'x', gone: null } })).toBe('created');
    const [record] = (await t.call(store, 'GET', path)).body.data;
    expect(record.customFields).toEqual({ a: 1, b: 'x' });
    expect(await runLine(t, store, handler, { ...line, customFields: { a: null, c: false } })).toBe('updated');
    expect((await fetched(t, store, `${path}/${record.id}`)).customFields).toEqual({ b: 'x', c: false });
    // the record as GET returns it, fed back, changes nothing
    const current = await fetched(t, store, `${path}/${record.id}`);
    expect(await runLine(t, store, handler, current)).toBe('updated');
    expect(await fetched(t, store, `${path}/${record.id}`)).toEqual(current);
  });
});

describe('customers without a password', () => {
  it('an import line may leave the password out; PATCH sets one later (8..256 characters)', async () => {
    const store = await t.newStore();
    expect(await runLine(t, store, importCustomerLine, { userName: 'imported', email: 'i@example.com' })).toBe('created');
    const [customer] = (await t.call(store, 'GET', '/customers')).body.data;
    const row = await t.database.db.selectFrom('customers').select('password_hash').where('id', '=', customer.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(fieldsOf(await t.call(store, 'PATCH', `/customers/${customer.id}`, { password: 'short' }))).toEqual(['password']);
    expect(fieldsOf(await t.call(store, 'PATCH', `/customers/${customer.id}`, { password: 'x'.repeat(257) }))).toEqual(['password']);
    expect((await t.call(store, 'PATCH', `/customers/${customer.id}`, { password: 'now-a-password' })).status).toBe(200);
    const after = await t.database.db
      .selectFrom('customers')
      .select('password_hash')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(after.password_hash).toMatch(/^scrypt\$/);
    // POST /customers still requires one
    const refused = await t.call(store, 'POST', '/customers', { userName: 'direct' });
    expect(fieldsOf(refused)).toEqual(['password']);
  });
});

describe('order import lines keep createdAt', () => {
  it('a line that creates an order keeps its date; a line for a known order does not move it', async () => {
    const store = await t.newStore();
    const line = {
      customOrderId: 'HIST-1',
      createdAt: '2019-03-04T05:06:07.089Z',
      updatedAt: '2019-03-05T00:00:00.000Z',
      cartItems: [{ productId: 'p', title: 'Lamp', price: 10, quantity: 1 }],
      subTotal: 10,
      totalAmount: 10,
    };
    expect(await runLine(t, store, importOrderLine, line)).toBe('created');
    const [order] = (await t.call(store, 'GET', '/orders')).body.data;
    expect(order.createdAt).toBe('2019-03-04T05:06:07.089Z');
    expect(order.updatedAt).not.toBe('2019-03-05T00:00:00.000Z');
    expect(await runLine(t, store, importOrderLine, { ...line, createdAt: '2020-01-01T00:00:00.000Z', orderStatus: 'shipped' })).toBe(
      'updated',
    );
    expect(await fetched(t, store, `/orders/${order.id}`)).toMatchObject({ createdAt: '2019-03-04T05:06:07.089Z', orderStatus: 'shipped' });
    // a future date is refused, naming it, as POST /orders refuses it
    const error = await runLine(t, store, importOrderLine, {
      ...line,
      customOrderId: 'HIST-2',
      createdAt: '2999-01-01T00:00:00.000Z',
    }).catch((thrown) => thrown);
    expect(error.details.map((d: { field: string }) => d.field)).toEqual(['createdAt']);
  });
});
