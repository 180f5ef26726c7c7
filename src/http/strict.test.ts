import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type StoreRecords, seedRecords } from '../../test/support/records.fixtures.js';

/** Unknown input is refused by default; read-only names, aliases and `Prefer: handling=lenient` (docs/api.md). */

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
const LENIENT = { prefer: 'handling=lenient' };
const IMAGE = 'https://cdn.example.test/tee.png';
const fieldsOf = (error: { details: { in: string; field: string }[] }) => error.details.map((d) => `${d.in}:${d.field}`).sort();

describe('output names are accepted as input aliases', () => {
  it('PATCH /products/{id} {image} changes the images (it answered 200 and changed nothing)', async () => {
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, { image: [IMAGE] });
    expect(res.status).toBe(200);
    expect(res.body.data.image).toEqual([IMAGE]);
    expect((await t.call(store, 'GET', `/products/${records.product}`)).body.data.image).toEqual([IMAGE]);
  });

  it('POST /products {selectedCollection} links the collections, in either handling', async () => {
    for (const headers of [{}, LENIENT]) {
      const res = await t.call(
        store,
        'POST',
        '/products',
        { title: 'Cap', selectedCollection: [records.collection], image: [IMAGE] },
        headers,
      );
      expect(res.status).toBe(201);
      expect(res.body.data.selectedCollection).toEqual([records.collection]);
      expect(res.body.data.image).toEqual([IMAGE]);
    }
  });

  it('sending both names is a 400 naming the alias, in either handling, and changes nothing', async () => {
    for (const headers of [{}, LENIENT]) {
      const res = await t.call(
        store,
        'PATCH',
        `/products/${records.product}`,
        { image: [IMAGE], images: [], selectedCollection: [], selectedCollections: [] },
        headers,
      );
      expect(fieldsOf(expectError(res, 400, 'VALIDATION_ERROR'))).toEqual(['body:image', 'body:selectedCollection']);
    }
    expect((await t.call(store, 'GET', `/products/${records.product}`)).body.data.selectedCollection).toEqual([records.collection]);
  });

  it('a bad value under the alias is named by the input name', async () => {
    const res = await t.call(store, 'POST', '/products', { title: 'Bad', image: ['ftp://x.test/a.png'] });
    expect(expectError(res, 400, 'VALIDATION_ERROR').details).toEqual([{ field: 'images[0]', in: 'body', message: expect.any(String) }]);
  });
});

describe('unknown input is refused by default', () => {
  it('a product with names the API does not have is a 400 naming each, and nothing is created', async () => {
    const before = (await t.call(store, 'GET', '/products')).body.pagination.total;
    const res = await t.call(store, 'POST', '/products', { title: 'Mug', inventory: 5, colour: 'blue', price: 12 });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(error)).toEqual(['body:colour', 'body:inventory']);
    expect(error.details[0].message).toMatch(/not a known property/);
    expect(res.headers['preference-applied']).toBeUndefined();
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(before);
  });

  it('names every unknown body property at any depth by its path, and every unknown query parameter', async () => {
    const before = (await t.call(store, 'GET', '/orders')).body.pagination.total;
    const res = await t.call(store, 'POST', '/orders?color=red&debug=1', {
      cartItems: [
        { productId: 'p1', title: 'Tee', price: 1, quantity: 1 },
        { productId: 'p2', title: 'Cap', price: 1, quantity: 1, color: 'red' },
      ],
      subTotal: 2,
      totalAmount: 2,
      gift: true,
      shippingAddress: { city: 'Paris', planet: 'Earth' },
    });
    expect(fieldsOf(expectError(res, 400, 'VALIDATION_ERROR'))).toEqual([
      'body:cartItems[1].color',
      'body:gift',
      'body:shippingAddress.planet',
      'query:color',
      'query:debug',
    ]);
    expect((await t.call(store, 'GET', '/orders')).body.pagination.total).toBe(before);
  });

  it('a filter a list does not have is a 400, not the whole unfiltered list', async () => {
    const res = await t.call(store, 'GET', '/products?colour=red&limit=5');
    expect(expectError(res, 400, 'VALIDATION_ERROR').details).toEqual([{ field: 'colour', in: 'query', message: expect.any(String) }]);
    expect((await t.call(store, 'GET', '/products?page=1&limit=5&sort=title&status=active')).status).toBe(200);
  });

  it('a parameter on an operation that takes none is a 400', async () => {
    const one = await t.call(store, 'GET', `/products/${records.product}?fields=title`);
    expect(expectError(one, 400, 'VALIDATION_ERROR').details).toEqual([{ field: 'fields', in: 'query', message: expect.any(String) }]);
    const patch = await t.call(store, 'PATCH', `/customers/${records.customer}?notify=true`, { firstName: 'Ada' });
    expect(fieldsOf(expectError(patch, 400, 'VALIDATION_ERROR'))).toEqual(['query:notify']);
  });

  it('a name of another record (a variant field on the product, a product field on a variant) is unknown', async () => {
    const product = await t.call(store, 'PATCH', `/products/${records.product}`, { stock: 3 });
    expect(fieldsOf(expectError(product, 400, 'VALIDATION_ERROR'))).toEqual(['body:stock']);
    const variant = await t.call(store, 'PATCH', `/products/${records.product}/variants/${records.variant}`, { title: 'x', stock: 3 });
    expect(fieldsOf(expectError(variant, 400, 'VALIDATION_ERROR'))).toEqual(['body:title']);
  });

  it('Prefer: handling=strict is the default said out loud, and says so', async () => {
    const bad = await t.call(store, 'PATCH', `/customers/${records.customer}`, { nickname: 'A' }, STRICT);
    expect(fieldsOf(expectError(bad, 400, 'VALIDATION_ERROR'))).toEqual(['body:nickname']);
    expect(bad.headers['preference-applied']).toBe('handling=strict');
    const good = await t.call(
      store,
      'PATCH',
      `/customers/${records.customer}`,
      { firstName: 'Ada' },
      { prefer: 'return=minimal, handling=strict' },
    );
    expect(good.status).toBe(200);
    expect(good.headers['preference-applied']).toBe('handling=strict');
  });
});

describe('Prefer: handling=lenient', () => {
  it('ignores unknown body properties at any depth and unknown query parameters, and says so', async () => {
    const res = await t.call(
      store,
      'POST',
      '/orders?color=red',
      {
        cartItems: [{ productId: 'p1', title: 'Tee', price: 1, quantity: 1, color: 'red' }],
        subTotal: 1,
        totalAmount: 1,
        gift: true,
        shippingAddress: { city: 'Paris', planet: 'Earth' },
      },
      LENIENT,
    );
    expect(res.status).toBe(201);
    expect(res.headers['preference-applied']).toBe('handling=lenient');
    expect(res.body.data.cartItems[0]).not.toHaveProperty('color');
    expect(res.body.data.shippingAddress).not.toHaveProperty('planet');
    expect(res.body.data.shippingAddress.city).toBe('Paris');
    const stored = (await t.call(store, 'GET', `/orders/${res.body.data.id}`)).body.data;
    expect(stored).not.toHaveProperty('gift');
    expect(stored.cartItems[0]).not.toHaveProperty('color');
  });

  it('an unknown filter is ignored: the list is the unfiltered one', async () => {
    const plain = await t.call(store, 'GET', '/products?limit=5');
    const res = await t.call(store, 'GET', '/products?colour=red&limit=5', undefined, LENIENT);
    expect(res.status).toBe(200);
    expect(res.headers['preference-applied']).toBe('handling=lenient');
    expect(res.body.pagination.total).toBe(plain.body.pagination.total);
  });

  it('still refuses wrong values of known names', async () => {
    const res = await t.call(store, 'POST', '/products', { title: 'Mug', price: '12', colour: 'blue' }, LENIENT);
    expect(fieldsOf(expectError(res, 400, 'VALIDATION_ERROR'))).toEqual(['body:price']);
    expect(res.headers['preference-applied']).toBe('handling=lenient');
  });
});

/** GET a record, change one field of it, PATCH it all back: read-only names are ignored, the change applied. */
async function roundTrip(getUrl: string, patchUrl: string, change: Record<string, unknown>) {
  const read = await t.call(store, 'GET', getUrl);
  expect(read.status, getUrl).toBe(200);
  const res = await t.call(store, 'PATCH', patchUrl, { ...read.body.data, ...change });
  expect(res.status, `${patchUrl}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.data).toMatchObject({ ...change, id: read.body.data.id, createdAt: read.body.data.createdAt });
  return { before: read.body.data, after: res.body.data };
}

describe('a record read with GET can be sent back as it is (read-only names are ignored)', () => {
  it('products, with their variants, options and every derived field', async () => {
    const { before, after } = await roundTrip(`/products/${records.product}`, `/products/${records.product}`, { title: 'Tee 2' });
    expect(after).toMatchObject({ image: before.image, selectedCollection: before.selectedCollection, options: before.options });
    expect(after.variants.map((v: { id: string }) => v.id)).toEqual(before.variants.map((v: { id: string }) => v.id));
  });

  it('variants', async () => {
    const url = `/products/${records.product}/variants/${records.variant}`;
    const variants = (await t.call(store, 'GET', `/products/${records.product}/variants`)).body.data;
    const variant = variants.find((v: { id: string }) => v.id === records.variant);
    const res = await t.call(store, 'PATCH', url, { ...variant, stock: 7 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ ...variant, stock: 7, updatedAt: expect.any(String) });
  });

  it('collections, manual and smart', async () => {
    await roundTrip(`/collections/${records.collection}`, `/collections/${records.collection}`, { title: 'Summer 2' });
    await roundTrip(`/collections/${records.smartCollection}`, `/collections/${records.smartCollection}`, { title: 'Cheap 2' });
  });

  it('attributes and attribute sets', async () => {
    await roundTrip(`/attributes/${records.attribute}`, `/attributes/${records.attribute}`, { name: 'Fabric' });
    await roundTrip(`/attribute-sets/${records.attributeSet}`, `/attribute-sets/${records.attributeSet}`, { name: 'Clothing' });
  });

  it('customers and addresses', async () => {
    await roundTrip(`/customers/${records.customer}`, `/customers/${records.customer}`, { firstName: 'Grace' });
    await roundTrip(`/addresses/${records.address}`, `/addresses/${records.address}`, { city: 'Lyon' });
  });

  it('orders', async () => {
    const { before, after } = await roundTrip(`/orders/${records.order}`, `/orders/${records.order}`, { orderStatus: 'shipped' });
    expect(after.cartItems).toEqual(before.cartItems);
  });

  it('a read-only name never writes: a changed id or createdAt is ignored', async () => {
    const read = (await t.call(store, 'GET', `/customers/${records.customer}`)).body.data;
    const res = await t.call(store, 'PATCH', `/customers/${records.customer}`, {
      ...read,
      id: '0123456789abcdef01234567',
      createdAt: '2001-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: records.customer, createdAt: read.createdAt });
  });

  it('but a name the record does not have is still refused beside them', async () => {
    const read = (await t.call(store, 'GET', `/products/${records.product}`)).body.data;
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, {
      ...read,
      inventory: 4,
      variants: [{ ...read.variants[0], weight: 1 }],
    });
    expect(fieldsOf(expectError(res, 400, 'VALIDATION_ERROR'))).toEqual(['body:inventory', 'body:variants[0].weight']);
  });
});
