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

const STRICT = { prefer: 'handling=strict' };
const IMAGE = 'https://cdn.example.test/tee.png';

describe('output names are accepted as input aliases', () => {
  it('PATCH /products/{id} {image} changes the images (it answered 200 and changed nothing)', async () => {
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, { image: [IMAGE] });
    expect(res.status).toBe(200);
    expect(res.body.data.image).toEqual([IMAGE]);
    expect((await t.call(store, 'GET', `/products/${records.product}`)).body.data.image).toEqual([IMAGE]);
  });

  it('POST /products {selectedCollection} links the collections', async () => {
    const res = await t.call(store, 'POST', '/products', { title: 'Cap', selectedCollection: [records.collection], image: [IMAGE] });
    expect(res.status).toBe(201);
    expect(res.body.data.selectedCollection).toEqual([records.collection]);
    expect(res.body.data.image).toEqual([IMAGE]);
  });

  it('a record read with GET can be sent back as it is', async () => {
    const product = (await t.call(store, 'GET', `/products/${records.product}`)).body.data;
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, { ...product, title: 'Tee 2' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Tee 2', image: product.image, selectedCollection: product.selectedCollection });
  });

  it('sending both names is a 400 naming the alias, and changes nothing', async () => {
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, {
      image: [IMAGE],
      images: [],
      selectedCollection: [],
      selectedCollections: [],
    });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => `${d.in}:${d.field}`).sort()).toEqual(['body:image', 'body:selectedCollection']);
    expect((await t.call(store, 'GET', `/products/${records.product}`)).body.data.selectedCollection).toEqual([records.collection]);
  });

  it('a bad value under the alias is named by the input name', async () => {
    const res = await t.call(store, 'POST', '/products', { title: 'Bad', image: ['ftp://x.test/a.png'] });
    expect(expectError(res, 400, 'VALIDATION_ERROR').details).toEqual([{ field: 'images[0]', in: 'body', message: expect.any(String) }]);
  });
});

describe('Prefer: handling=strict', () => {
  it('without it unknown properties and parameters are ignored', async () => {
    const res = await t.call(store, 'POST', '/orders?color=red', {
      cartItems: [{ productId: 'p1', title: 'Tee', price: 1, quantity: 1, color: 'red' }],
      subTotal: 1,
      totalAmount: 1,
      gift: true,
    });
    expect(res.status).toBe(201);
    expect(res.headers['preference-applied']).toBeUndefined();
    expect(res.body.data.cartItems[0]).not.toHaveProperty('color');
  });

  it('names every unknown body property at any depth and every unknown query parameter', async () => {
    const before = (await t.call(store, 'GET', '/orders')).body.pagination.total;
    const res = await t.call(
      store,
      'POST',
      '/orders?color=red&debug=1',
      {
        cartItems: [
          { productId: 'p1', title: 'Tee', price: 1, quantity: 1 },
          { productId: 'p2', title: 'Cap', price: 1, quantity: 1, color: 'red' },
        ],
        subTotal: 2,
        totalAmount: 2,
        gift: true,
        shippingAddress: { city: 'Paris', planet: 'Earth' },
      },
      STRICT,
    );
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.headers['preference-applied']).toBe('handling=strict');
    expect(error.details.map((d) => `${d.in}:${d.field}`).sort()).toEqual([
      'body:cartItems[1].color',
      'body:gift',
      'body:shippingAddress.planet',
      'query:color',
      'query:debug',
    ]);
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(before);
  });

  it('a known list parameter passes; a parameter on a route that takes none does not', async () => {
    const list = await t.call(store, 'GET', '/products?page=1&limit=5&sort=title&status=active', undefined, STRICT);
    expect(list.status).toBe(200);
    expect(list.headers['preference-applied']).toBe('handling=strict');
    const one = await t.call(store, 'GET', `/products/${records.product}?fields=title`, undefined, STRICT);
    expect(expectError(one, 400, 'VALIDATION_ERROR').details).toEqual([{ field: 'fields', in: 'query', message: expect.any(String) }]);
  });

  it('a valid strict write succeeds and says the preference was applied', async () => {
    const res = await t.call(
      store,
      'PATCH',
      `/customers/${records.customer}`,
      { firstName: 'Ada' },
      { prefer: 'return=minimal, handling=strict' },
    );
    expect(res.status).toBe(200);
    expect(res.headers['preference-applied']).toBe('handling=strict');
  });

  it('handling=lenient (or another preference) keeps the default', async () => {
    const res = await t.call(store, 'PATCH', `/customers/${records.customer}`, { nickname: 'A' }, { prefer: 'handling=lenient' });
    expect(res.status).toBe(200);
    expect(res.headers['preference-applied']).toBeUndefined();
  });
});
