import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { settled } from '../../test/support/feed.fixtures.js';
import { updateStore } from '../stores/index.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function create(store: TestStore, body: object) {
  const res = await t.call(store, 'POST', '/price-lists', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const fieldsOf = (res: { body: { error: { details: { field: string }[] } } }) => res.body.error.details.map((detail) => detail.field);

describe('price lists', () => {
  it('CRUD returns every field, with ETags, If-Match and an event per change', async () => {
    const store = await t.newStore();
    const made = await create(store, { name: 'Wholesale', currency: 'EUR', customerTags: [' b2b ', 'B2B', 'vip'] });
    expect(Object.keys(made).sort()).toEqual([
      'adjustment',
      'createdAt',
      'currency',
      'customerTags',
      'endsAt',
      'id',
      'name',
      'startsAt',
      'status',
      'updatedAt',
    ]);
    expect(made).toMatchObject({ name: 'Wholesale', currency: 'EUR', status: 'active', startsAt: null, endsAt: null, adjustment: null });
    expect(made.customerTags).toEqual(['b2b', 'vip']);
    const got = await t.call(store, 'GET', `/price-lists/${made.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBeTruthy();
    expectError(
      await t.call(store, 'PATCH', `/price-lists/${made.id}`, { status: 'draft' }, { 'if-match': '"old"' }),
      412,
      'PRECONDITION_FAILED',
    );
    const window = { startsAt: '2026-12-01T00:00:00.000Z', endsAt: '2027-01-01T00:00:00.000Z' };
    const patched = await t.call(
      store,
      'PATCH',
      `/price-lists/${made.id}`,
      { status: 'draft', ...window },
      { 'if-match': got.headers.etag as string },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'draft', ...window });
    const listed = await t.call(store, 'GET', '/price-lists?currency=EUR&status=draft');
    expect(listed.body.data.map((list: { id: string }) => list.id)).toEqual([made.id]);
    expect((await t.call(store, 'DELETE', `/price-lists/${made.id}`)).status).toBe(200);
    expectError(await t.call(store, 'GET', `/price-lists/${made.id}`), 404, 'NOT_FOUND');
    // On PostgreSQL the feed shows a commit once the transactions open before it have ended (other files' too).
    await settled(t);
    const events = await t.call(store, 'GET', '/events?types=priceList.created,priceList.updated,priceList.deleted');
    expect(events.body.data.map((event: { type: string }) => event.type)).toEqual([
      'priceList.created',
      'priceList.updated',
      'priceList.deleted',
    ]);
    expect(events.body.data[2].data).toMatchObject({ id: made.id, name: 'Wholesale', status: 'draft' });
  });

  it('refuses what §14 refuses, naming the field: a code not in ISO 4217, endsAt before startsAt, a taken name', async () => {
    const store = await t.newStore();
    const bad = expectError(await t.call(store, 'POST', '/price-lists', { name: 'X', currency: 'ABC' }), 400, 'VALIDATION_ERROR');
    expect(bad.details[0].field).toBe('currency');
    expectError(await t.call(store, 'POST', '/price-lists', { name: 'X', currency: 'eur' }), 400, 'VALIDATION_ERROR');
    const window = { startsAt: '2027-01-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' };
    const backwards = await t.call(store, 'POST', '/price-lists', { name: 'X', currency: 'EUR', ...window });
    expect(expectError(backwards, 400, 'VALIDATION_ERROR').details.map((detail: { field: string }) => detail.field)).toEqual(['endsAt']);
    await create(store, { name: 'Retail', currency: 'USD' });
    const taken = expectError(await t.call(store, 'POST', '/price-lists', { name: 'retail', currency: 'EUR' }), 400, 'DUPLICATE_VALUE');
    expect(taken.details[0].field).toBe('name');
    await create(await t.newStore(), { name: 'Retail', currency: 'USD' });
  });

  it("an adjustment only in the store's currency (USD unless the store says otherwise)", async () => {
    const store = await t.newStore();
    const adjustment = { type: 'percentageDecrease', value: 12.5 };
    const eur = await t.call(store, 'POST', '/price-lists', { name: 'EU sale', currency: 'EUR', adjustment });
    expect(expectError(eur, 400, 'VALIDATION_ERROR').details[0].field).toBe('adjustment');
    const usd = await create(store, { name: 'US sale', currency: 'USD', adjustment });
    expect(usd.adjustment).toEqual(adjustment);
    const moved = await t.call(store, 'PATCH', `/price-lists/${usd.id}`, { currency: 'EUR' });
    expect(expectError(moved, 400, 'VALIDATION_ERROR').details[0].field).toBe('adjustment');
    await updateStore(t.database.db, store.slug, { currency: 'EUR' });
    expect((await create(store, { name: 'EU sale', currency: 'EUR', adjustment })).adjustment).toEqual(adjustment);
    const over = await t.call(store, 'POST', '/price-lists', {
      name: 'Y',
      currency: 'EUR',
      adjustment: { type: 'percentageDecrease', value: 101 },
    });
    expectError(over, 400, 'VALIDATION_ERROR');
  });
});

describe('fixed prices', () => {
  async function catalog(store: TestStore) {
    const simple = (await t.call(store, 'POST', '/products', { title: 'Mug', price: 10 })).body.data;
    const shirt = (await t.call(store, 'POST', '/products', { title: 'Shirt', price: 20, options: [{ name: 'Size', values: ['S', 'M'] }] }))
      .body.data;
    return { simple, shirt, variants: shirt.variants as { id: string }[] };
  }

  it('PUT upserts 1..1,000 items and answers them as they now are; GET pages them by cursor; delete removes them', async () => {
    const store = await t.newStore();
    const { simple, shirt, variants } = await catalog(store);
    const list = await create(store, { name: 'EU', currency: 'EUR' });
    const put = await t.call(store, 'PUT', `/price-lists/${list.id}/prices`, {
      items: [
        { productId: simple.id, price: 9.99, comparePrice: 12.5 },
        { productId: shirt.id, variantId: variants[0].id, price: 18 },
        { productId: shirt.id, variantId: variants[1].id, price: 19.9 },
      ],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toMatchObject([
      { productId: simple.id, variantId: null, price: 9.99, comparePrice: 12.5 },
      { productId: shirt.id, variantId: variants[0].id, price: 18, comparePrice: null },
      { productId: shirt.id, variantId: variants[1].id, price: 19.9, comparePrice: null },
    ]);
    const again = await t.call(store, 'PUT', `/price-lists/${list.id}/prices`, { items: [{ productId: simple.id, price: 8 }] });
    expect(again.body.data).toMatchObject([{ price: 8, comparePrice: null }]);
    const first = await t.call(store, 'GET', `/price-lists/${list.id}/prices?limit=2&sort=createdAt`);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.pagination.total).toBe(3);
    const rest = await t.call(
      store,
      'GET',
      `/price-lists/${list.id}/prices?limit=2&sort=createdAt&cursor=${first.body.pagination.nextCursor}`,
    );
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.pagination.nextCursor).toBeNull();
    const removed = await t.call(store, 'POST', `/price-lists/${list.id}/prices/delete`, { items: [{ productId: simple.id }] });
    expect(removed.body.data).toEqual([{ productId: simple.id, variantId: null, price: null, comparePrice: null, updatedAt: null }]);
    expect((await t.call(store, 'GET', `/price-lists/${list.id}/prices`)).body.pagination.total).toBe(2);
    await settled(t);
    const events = await t.call(store, 'GET', '/events?types=priceList.updated');
    expect(events.body.data).toHaveLength(3);
    expect(events.body.data[0].data).toMatchObject({ id: list.id, name: 'EU' });
  });

  it("amounts exact to the currency's minor unit (JPY 0, EUR 2, KWD 3), comparePrice ≥ price, items of the store", async () => {
    const store = await t.newStore();
    const { simple, shirt, variants } = await catalog(store);
    const other = (await t.call(await t.newStore(), 'POST', '/products', { title: 'Theirs' })).body.data;
    const jpy = await create(store, { name: 'JP', currency: 'JPY' });
    const kwd = await create(store, { name: 'KW', currency: 'KWD' });
    const eur = await create(store, { name: 'EU', currency: 'EUR' });
    const put = (list: { id: string }, items: object[]) => t.call(store, 'PUT', `/price-lists/${list.id}/prices`, { items });
    expect(fieldsOf(await put(jpy, [{ productId: simple.id, price: 1000.5 }]))).toEqual(['items[0].price']);
    expect((await put(jpy, [{ productId: simple.id, price: 1000 }])).status).toBe(200);
    expect(fieldsOf(await put(kwd, [{ productId: simple.id, price: 1.2345 }]))).toEqual(['items[0].price']);
    expect((await put(kwd, [{ productId: simple.id, price: 1.234 }])).body.data[0].price).toBe(1.234);
    const wrong = await put(eur, [
      { productId: simple.id, price: 10, comparePrice: 9.99 },
      { productId: shirt.id, price: 5 },
      { productId: other.id, price: 5 },
      { productId: shirt.id, variantId: variants[0].id, price: 0.001 },
      { productId: simple.id, price: 1 },
    ]);
    expect(wrong.status).toBe(400);
    expect(fieldsOf(wrong)).toEqual([
      'items[1].variantId',
      'items[2].productId',
      'items[4].productId',
      'items[0].comparePrice',
      'items[3].price',
    ]);
    expect((await t.call(store, 'GET', `/price-lists/${eur.id}/prices`)).body.data).toEqual([]);
    const moved = await t.call(store, 'PATCH', `/price-lists/${kwd.id}`, { currency: 'EUR' });
    expect(fieldsOf(moved)).toEqual(['currency']);
  });

  it('a retry with the same Idempotency-Key replays the answer and appends no second event', async () => {
    const store = await t.newStore();
    const { simple } = await catalog(store);
    const list = await create(store, { name: 'EU', currency: 'EUR' });
    const body = { items: [{ productId: simple.id, price: 7 }] };
    const first = await t.call(store, 'PUT', `/price-lists/${list.id}/prices`, body, { 'idempotency-key': 'put-1' });
    const second = await t.call(store, 'PUT', `/price-lists/${list.id}/prices`, body, { 'idempotency-key': 'put-1' });
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    await settled(t);
    expect((await t.call(store, 'GET', '/events?types=priceList.updated')).body.data).toHaveLength(1);
  });

  it('at most 1,000 lists per store', async () => {
    const store = await t.newStore();
    const now = new Date();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      store_id: store.id,
      id: `${(i + 1).toString(16).padStart(8, '0')}0000000000000000`,
      name: `List ${i}`,
      currency: 'EUR',
      created_at: now,
      updated_at: now,
    }));
    await t.database.db.insertInto('price_lists').values(rows).execute();
    const refused = expectError(
      await t.call(store, 'POST', '/price-lists', { name: 'One more', currency: 'EUR' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(refused.details[0].field).toBe('name');
  });
});
