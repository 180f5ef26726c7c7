import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type StoreRecords, seedRecords } from '../../test/support/records.fixtures.js';

let t: TestContext;
let store: TestStore;
let records: StoreRecords;
beforeAll(async () => {
  t = await setupTestApp();
  store = await t.newStore();
  records = await seedRecords(t, store);
});
afterAll(() => t.close());

const NUL = '\u0000';

interface Case {
  name: string;
  method: string;
  url: (r: StoreRecords) => string;
  body?: (r: StoreRecords) => unknown;
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  anonymous?: boolean;
}

// Each of these answered 500 (and logged a stack) before the input guard: PostgreSQL refuses U+0000.
const NUL_CASES: Case[] = [
  { name: 'product title', method: 'POST', url: () => '/products', body: () => ({ title: `a${NUL}b` }), field: 'title', in: 'body' },
  { name: 'product search', method: 'GET', url: () => '/products?search=%00', field: 'search', in: 'query' },
  { name: 'product handle filter', method: 'GET', url: () => '/products?handle=a%00', field: 'handle', in: 'query' },
  { name: 'order status filter', method: 'GET', url: () => '/orders?status=%00', field: 'status', in: 'query' },
  { name: 'order paymentStatus filter', method: 'GET', url: () => '/orders?paymentStatus=%00', field: 'paymentStatus', in: 'query' },
  { name: 'attribute-set name', method: 'POST', url: () => '/attribute-sets', body: () => ({ name: NUL }), field: 'name', in: 'body' },
  {
    name: 'attribute value name',
    method: 'PATCH',
    url: (r) => `/attributes/${r.attribute}`,
    body: () => ({ values: ['ok', `x${NUL}`] }),
    field: 'values[1]',
    in: 'body',
  },
  {
    name: 'smart-rule value',
    method: 'POST',
    url: () => '/collections',
    body: () => ({ title: 'S', collectionType: 'smart', conditions: [{ field: 'title', operator: 'contains', value: `a${NUL}` }] }),
    field: 'conditions[0].value',
    in: 'body',
  },
  {
    name: 'refund field (jsonb)',
    method: 'PATCH',
    url: (r) => `/orders/${r.order}`,
    body: () => ({ refund: { status: NUL } }),
    field: 'refund.status',
    in: 'body',
  },
  {
    name: 'customer userName',
    method: 'POST',
    url: () => '/customers',
    body: () => ({ userName: `u${NUL}`, password: 'long-secret-1' }),
    field: 'userName',
    in: 'body',
  },
  {
    name: 'POST /auth without a credential',
    method: 'POST',
    url: () => '/auth',
    body: () => ({ storeSlug: `s${NUL}`, email: 'a@b.test', password: 'x' }),
    field: 'storeSlug',
    in: 'body',
    anonymous: true,
  },
  { name: 'a path id', method: 'GET', url: () => '/products/%00', field: 'id', in: 'path' },
  { name: 'a nested path id', method: 'GET', url: () => '/customers/ab%00/addresses', field: 'customerId', in: 'path' },
  {
    name: 'a property name',
    method: 'POST',
    url: () => '/attribute-sets',
    body: () => ({ name: 'ok', [`x${NUL}`]: 1 }),
    field: 'x\\u0000',
    in: 'body',
  },
];

describe('U+0000 anywhere in a request is a 400 naming the field, never a 500', () => {
  for (const c of NUL_CASES) {
    it(c.name, async () => {
      const res = await t.call(c.anonymous ? null : store, c.method, c.url(records), c.body?.(records));
      const error = expectError(res, 400, 'VALIDATION_ERROR');
      expect(error.details).toContainEqual({ field: c.field, in: c.in, message: expect.stringContaining('U+0000') });
    });
  }

  it('in a header value the service reads', async () => {
    const res = await t.call(store, 'GET', '/products', undefined, { prefer: `handling=${NUL}` });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'prefer', in: 'header', message: expect.stringContaining('U+0000') }]);
  });

  it('names every bad string at once and stores nothing', async () => {
    const res = await t.call(store, 'POST', '/products', { title: NUL, description: NUL, images: [NUL] });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['description', 'images[0]', 'title']);
    const list = await t.call(store, 'GET', '/products');
    expect(list.body.pagination.total).toBe(1);
  });
});

describe('lone surrogates are a 400 naming the field', () => {
  it('in a text column (was stored as U+FFFD)', async () => {
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, { title: 'Tee \ud800' });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'title', in: 'body', message: expect.stringContaining('lone surrogate') }]);
    expect((await t.call(store, 'GET', `/products/${records.product}`)).body.data.title).toBe('Tee');
  });

  it('in a jsonb column (was "a value is out of range")', async () => {
    const res = await t.call(store, 'PATCH', `/orders/${records.order}`, { refund: { adminRemark: 'late \udc00' } });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'refund.adminRemark', in: 'body', message: expect.stringContaining('lone surrogate') }]);
  });

  it('a well-formed pair (an emoji) is fine', async () => {
    const res = await t.call(store, 'POST', '/attribute-sets', { name: 'Party \ud83c\udf89' });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Party 🎉');
  });
});
