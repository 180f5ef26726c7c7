import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const N = 20;

async function newCustomer(store: TestStore): Promise<string> {
  return (await t.call(store, 'POST', '/customers', { userName: `c${Math.random()}`, password: '12345678' })).body.data.id;
}

async function defaultCount(customerId: string): Promise<number> {
  const rows = await t.database.db
    .selectFrom('addresses')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('is_default', '=', true)
    .execute();
  return rows.length;
}

// PGlite runs one transaction at a time, so there these requests never interleave and prove nothing.
describe.skipIf(engine !== 'postgres')('default address under concurrency', () => {
  it(`${N} parallel isDefault: true updates leave exactly one default`, async () => {
    const store = await t.newStore();
    const customerId = await newCustomer(store);
    const ids: string[] = [];
    for (let i = 0; i < N; i++)
      ids.push((await t.call(store, 'POST', `/customers/${customerId}/addresses`, { city: `c${i}` })).body.data.id);
    const replies = await Promise.all(ids.map((id) => t.call(store, 'PATCH', `/addresses/${id}`, { isDefault: true })));
    expect(replies.map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(await defaultCount(customerId)).toBe(1);
    const list = (await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data;
    expect(list.filter((a: { isDefault: boolean }) => a.isDefault)).toHaveLength(1);
  });

  it(`${N} parallel creates on a customer without addresses give exactly one default`, async () => {
    const store = await t.newStore();
    const customerId = await newCustomer(store);
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        t.call(store, 'POST', `/customers/${customerId}/addresses`, { city: `c${i}`, isDefault: i % 2 === 0 }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(N).fill(201));
    expect(await defaultCount(customerId)).toBe(1);
  });

  it(`${N} parallel deletes and default changes never leave two defaults or none`, async () => {
    const store = await t.newStore();
    const customerId = await newCustomer(store);
    const ids: string[] = [];
    for (let i = 0; i < N; i++)
      ids.push((await t.call(store, 'POST', `/customers/${customerId}/addresses`, { city: `c${i}` })).body.data.id);
    const replies = await Promise.all(
      ids.map((id, i) =>
        i % 2 === 0 ? t.call(store, 'DELETE', `/addresses/${id}`) : t.call(store, 'PATCH', `/addresses/${id}`, { isDefault: i % 3 === 0 }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(await defaultCount(customerId)).toBe(1);
  });
});
