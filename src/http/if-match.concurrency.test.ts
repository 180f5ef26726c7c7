import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { newId } from '../shared/ids.js';

/**
 * If-Match is checked and the write done atomically (CONTRACT §9.2): of N concurrent PATCHes naming the
 * same version exactly one succeeds, the others are 412 with the new current ETag. On PGlite the
 * transactions run one after another, so this exercises the stale-ETag path; on PostgreSQL they race.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const N = 8;
const order = { cartItems: [{ productId: 'p', title: 'T', price: 1, quantity: 1 }], subTotal: 1, totalAmount: 1 };

/** Per resource: how to create one record (its URL) and a PATCH body that changes it differently for each i. */
const RESOURCES: Record<string, { create: (store: TestStore) => Promise<string>; change: (i: number) => object }> = {
  'attribute-sets': { create: (s) => created(s, '/attribute-sets', { name: `s-${newId()}` }), change: (i) => ({ name: `set ${i}` }) },
  attributes: { create: (s) => created(s, '/attributes', { name: `a-${newId()}` }), change: (i) => ({ name: `attribute ${i}` }) },
  collections: { create: (s) => created(s, '/collections', { title: 'C' }), change: (i) => ({ title: `collection ${i}` }) },
  customers: {
    create: (s) => created(s, '/customers', { userName: `c-${newId()}`, password: '12345678' }),
    change: (i) => ({ firstName: `first ${i}` }),
  },
  addresses: {
    create: async (s) => {
      const customer = await created(s, '/customers', { userName: `c-${newId()}`, password: '12345678' });
      return `/addresses/${(await t.call(s, 'POST', `${customer}/addresses`, { city: 'X' })).body.data.id}`;
    },
    change: (i) => ({ city: `city ${i}` }),
  },
  orders: { create: (s) => created(s, '/orders', order), change: (i) => ({ orderStatus: `status ${i}` }) },
};

async function created(store: TestStore, collection: string, body: object): Promise<string> {
  const res = await t.call(store, 'POST', collection, body);
  expect(res.status).toBe(201);
  return `${collection}/${res.body.data.id}`;
}

describe('concurrent PATCHes with one If-Match', () => {
  for (const [name, resource] of Object.entries(RESOURCES)) {
    it(`${name}: exactly one 200, the rest 412 with the winner's ETag`, async () => {
      const store = await t.newStore();
      const url = await resource.create(store);
      const etag = String((await t.call(store, 'GET', url)).headers.etag);
      const replies = await Promise.all(
        Array.from({ length: N }, (_, i) => t.call(store, 'PATCH', url, resource.change(i), { 'if-match': etag })),
      );
      const winners = replies.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(replies.filter((r) => r.status === 412)).toHaveLength(N - 1);
      const now = await t.call(store, 'GET', url);
      expect(now.body.data).toEqual(winners[0].body.data);
      for (const loser of replies.filter((r) => r.status === 412)) {
        expect(loser.body.error.code).toBe('PRECONDITION_FAILED');
        expect(loser.headers.etag).toBe(now.headers.etag);
      }
    });
  }

  it('a DELETE and PATCHes naming one version: exactly one of them happens', async () => {
    const store = await t.newStore();
    const url = await created(store, '/customers', { userName: `c-${newId()}`, password: '12345678' });
    const etag = String((await t.call(store, 'GET', url)).headers.etag);
    const replies = await Promise.all([
      t.call(store, 'DELETE', url, undefined, { 'if-match': etag }),
      ...Array.from({ length: N - 1 }, (_, i) => t.call(store, 'PATCH', url, { firstName: `f${i}` }, { 'if-match': etag })),
    ]);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    // the losers saw either the new version (412) or no record any more (404)
    expect(replies.filter((r) => r.status === 412 || r.status === 404)).toHaveLength(N - 1);
  });
});
