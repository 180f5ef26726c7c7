import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const FIELDS = [
  'attributeSet',
  'averageRating',
  'badge',
  'barcode',
  'comparePrice',
  'createdAt',
  'customFields',
  'description',
  'handle',
  'id',
  'image',
  'metaDescription',
  'metaKeywords',
  'metaTitle',
  'options',
  'price',
  'productType',
  'returnConfig',
  'salePrice',
  'selectedCollection',
  'sizeChart',
  'sku',
  'status',
  'tags',
  'title',
  'totalReviews',
  'totalStock',
  'updatedAt',
  'variants',
  'vendor',
  'weightGrams',
];
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('products: create and read', () => {
  it('creates a minimal product with every field present, null or [] when unset', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'POST', '/products', { title: '  Plain Tee ', unknown: 'dropped' }, { prefer: 'handling=lenient' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const product = res.body.data;
    expect(Object.keys(product).sort()).toEqual(FIELDS);
    expect(product).toMatchObject({
      title: 'Plain Tee',
      handle: 'plain-tee',
      description: null,
      status: 'active',
      badge: null,
      price: null,
      salePrice: null,
      comparePrice: null,
      totalStock: null,
      image: [],
      sizeChart: null,
      selectedCollection: [],
      attributeSet: null,
      options: [],
      variants: [],
      metaTitle: null,
      metaDescription: null,
      metaKeywords: null,
      returnConfig: { useGlobalConfig: true, returnable: true, exchangeable: true, customReturnWindow: null },
      averageRating: 0,
      totalReviews: 0,
      vendor: null,
      productType: null,
      tags: [],
      sku: null,
      barcode: null,
      weightGrams: null,
      customFields: {},
    });
    expect(product.id).toMatch(/^[0-9a-f]{24}$/);
    expect(product.createdAt).toMatch(TIMESTAMP);
    expect(product.updatedAt).toMatch(TIMESTAMP);
    expect((await t.call(store, 'GET', `/products/${product.id}`)).body.data).toEqual(product);
  });

  it('stores every supplied field with its type, money exactly', async () => {
    const store = await t.newStore();
    const set = await t.call(store, 'POST', '/attribute-sets', { name: 'Apparel' });
    const body = {
      title: 'Linen Shirt',
      handle: 'Linen Shirt SS26',
      description: '<p>Breathable</p>',
      status: 'disabled',
      badge: 'New',
      price: 19.99,
      comparePrice: 24.99,
      totalStock: 12,
      sizeChart: 'https://cdn.example.com/charts/shirt.pdf',
      images: ['https://cdn.example.com/a.jpg', 'http://cdn.example.com/b.png?x=1'],
      attributeSet: set.body.data.id,
      metaTitle: 'Linen shirt',
      metaDescription: 'A shirt',
      metaKeywords: 'linen, shirt',
      returnConfig: { useGlobalConfig: false, customReturnWindow: 14 },
    };
    const res = await t.call(store, 'POST', '/products', body);
    expect(res.status).toBe(201);
    const { images, ...echoed } = body;
    expect(res.body.data).toMatchObject({
      ...echoed,
      handle: 'linen-shirt-ss26',
      image: images,
      salePrice: 24.99,
      returnConfig: { useGlobalConfig: false, returnable: true, exchangeable: true, customReturnWindow: 14 },
    });
    expect(res.body.data).not.toHaveProperty('images');
    const exact = await t.call(store, 'POST', '/products', { title: 'Cents', price: 0.1, salePrice: 123456789.123 });
    expect(exact.body.data).toMatchObject({ price: 0.1, comparePrice: 123456789.123, salePrice: 123456789.123 });
  });

  it('generates unique handles from titles and slugifies supplied ones', async () => {
    const store = await t.newStore();
    const handles = [];
    for (const title of ['Summer Dress', 'summer dress!', 'SUMMER  DRESS', '★★★']) {
      handles.push((await t.call(store, 'POST', '/products', { title })).body.data.handle);
    }
    expect(handles).toEqual(['summer-dress', 'summer-dress-2', 'summer-dress-3', 'product']);
    const given = await t.call(store, 'POST', '/products', { title: 'X', handle: '  Déjà Vu & Co ' });
    expect(given.body.data.handle).toBe('deja-vu-and-co');
    const other = await t.newStore();
    expect((await t.call(other, 'POST', '/products', { title: 'Summer Dress' })).body.data.handle).toBe('summer-dress');
  });

  it('gives concurrent creates of one title distinct handles', async () => {
    const store = await t.newStore();
    const created = await Promise.all(Array.from({ length: 8 }, () => t.call(store, 'POST', '/products', { title: 'Rush Item' })));
    expect(created.every((res) => res.status === 201)).toBe(true);
    const handles = new Set(created.map((res) => res.body.data.handle));
    expect(handles).toEqual(new Set(['rush-item', ...[2, 3, 4, 5, 6, 7, 8].map((n) => `rush-item-${n}`)]));
  });

  it('rejects a taken or empty handle on create and update, changing nothing', async () => {
    const store = await t.newStore();
    await t.call(store, 'POST', '/products', { title: 'One', handle: 'taken' });
    const dup = expectError(await t.call(store, 'POST', '/products', { title: 'Two', handle: 'TAKEN' }), 400, 'DUPLICATE_VALUE');
    expect(dup.details[0].field).toBe('handle');
    const empty = expectError(await t.call(store, 'POST', '/products', { title: 'Two', handle: ' !! ' }), 400, 'VALIDATION_ERROR');
    expect(empty.details.map((d) => d.field)).toEqual(['handle']);
    const second = (await t.call(store, 'POST', '/products', { title: 'Two' })).body.data;
    expectError(await t.call(store, 'PATCH', `/products/${second.id}`, { handle: 'Taken', price: 5 }), 400, 'DUPLICATE_VALUE');
    expectError(await t.call(store, 'PATCH', `/products/${second.id}`, { handle: '' }), 400, 'VALIDATION_ERROR');
    expect((await t.call(store, 'GET', `/products/${second.id}`)).body.data).toEqual(second);
    const same = await t.call(store, 'PATCH', `/products/${second.id}`, { handle: second.handle });
    expect(same.status).toBe(200);
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(2);
  });

  it('rejects wrong types with one detail per field, all at once', async () => {
    const store = await t.newStore();
    const bad = {
      title: '',
      price: '12',
      comparePrice: -1,
      totalStock: 1.5,
      status: 'archived',
      images: 'https://x.test/a.png',
      options: [{ name: 'Size' }],
      returnConfig: { returnable: 'yes' },
    };
    const error = expectError(await t.call(store, 'POST', '/products', bad), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(
      ['comparePrice', 'images', 'options[0].values', 'price', 'returnConfig.returnable', 'status', 'title', 'totalStock'].sort(),
    );
    expect(error.details.every((d) => d.in === 'body')).toBe(true);
    expectError(await t.call(store, 'POST', '/products', {}), 400, 'VALIDATION_ERROR');
    const ref = expectError(
      await t.call(store, 'POST', '/products', { title: 'x', attributeSet: 'f'.repeat(24) }),
      400,
      'VALIDATION_ERROR',
    );
    expect(ref.details[0].field).toBe('attributeSet');
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(0);
  });
});

describe('products: compare price', () => {
  it('requires comparePrice >= price on create, salePrice being its alias', async () => {
    const store = await t.newStore();
    const low = expectError(
      await t.call(store, 'POST', '/products', { title: 'A', price: 10, comparePrice: 9.99 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(low.details[0].field).toBe('comparePrice');
    const alias = expectError(await t.call(store, 'POST', '/products', { title: 'A', price: 10, salePrice: 5 }), 400, 'VALIDATION_ERROR');
    expect(alias.details[0].field).toBe('salePrice');
    const both = expectError(
      await t.call(store, 'POST', '/products', { title: 'A', comparePrice: 5, salePrice: 6 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(both.details[0].field).toBe('salePrice');
    expect((await t.call(store, 'POST', '/products', { title: 'A', price: 10, comparePrice: 10 })).status).toBe(201);
    expect((await t.call(store, 'POST', '/products', { title: 'B', price: 10, comparePrice: null })).status).toBe(201);
  });

  it('checks the merged record on PATCH and changes nothing when it fails', async () => {
    const store = await t.newStore();
    const product = (await t.call(store, 'POST', '/products', { title: 'A', price: 10, comparePrice: 20 })).body.data;
    const url = `/products/${product.id}`;
    const raise = expectError(await t.call(store, 'PATCH', url, { price: 25, title: 'Changed' }), 400, 'VALIDATION_ERROR');
    expect(raise.details[0].field).toBe('price');
    expectError(await t.call(store, 'PATCH', url, { comparePrice: 5 }), 400, 'VALIDATION_ERROR');
    expect((await t.call(store, 'GET', url)).body.data).toEqual(product);
    const cleared = await t.call(store, 'PATCH', url, { comparePrice: null, price: 25 });
    expect(cleared.body.data).toMatchObject({ price: 25, comparePrice: null, salePrice: null, title: 'A' });
    const sale = await t.call(store, 'PATCH', url, { salePrice: 30 });
    expect(sale.body.data).toMatchObject({ price: 25, comparePrice: 30, salePrice: 30 });
  });
});

describe('products: update and delete', () => {
  it('updates fields, merges returnConfig, clears with null, and accepts its own GET output back', async () => {
    const store = await t.newStore();
    const created = (await t.call(store, 'POST', '/products', { title: 'Mug', badge: 'Hot', price: 8, totalStock: 3 })).body.data;
    const url = `/products/${created.id}`;
    const patched = await t.call(store, 'PATCH', url, {
      title: 'Big Mug',
      badge: null,
      totalStock: 0,
      status: 'disabled',
      returnConfig: { exchangeable: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ title: 'Big Mug', handle: 'mug', badge: null, totalStock: 0, status: 'disabled', price: 8 });
    expect(patched.body.data.returnConfig).toEqual({
      useGlobalConfig: true,
      returnable: true,
      exchangeable: false,
      customReturnWindow: null,
    });
    expect(Date.parse(patched.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect(patched.body.data.createdAt).toBe(created.createdAt);
    const roundTrip = await t.call(store, 'PATCH', url, patched.body.data);
    expect(roundTrip.status).toBe(200);
    expect({ ...roundTrip.body.data, updatedAt: null }).toEqual({ ...patched.body.data, updatedAt: null });
  });

  it('deletes, then answers 404 everywhere', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/products', { title: 'Temp' })).body.data;
    expect((await t.call(store, 'DELETE', `/products/${id}`)).body).toEqual({ success: true, data: { id } });
    expectError(await t.call(store, 'GET', `/products/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'PATCH', `/products/${id}`, { title: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', `/products/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', '/products/not-an-id'), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', `/products/${id}/variants`), 404, 'NOT_FOUND');
  });

  it('seals stores off from each other', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const product = (await t.call(a, 'POST', '/products', { title: 'Secret Lamp', options: [{ name: 'Color', values: ['Red'] }] })).body
      .data;
    const variant = product.variants[0];
    expectError(await t.call(b, 'GET', `/products/${product.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/products/${product.id}`, { title: 'mine' }), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'DELETE', `/products/${product.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'GET', `/products/${product.id}/variants`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: 1 }), 404, 'NOT_FOUND');
    for (const query of ['', '?search=secret', `?search=${variant.sku}`, '?handle=secret-lamp']) {
      expect((await t.call(b, 'GET', `/products${query}`)).body.pagination.total).toBe(0);
    }
    // b may use the same handle: handles are unique per store
    expect((await t.call(b, 'POST', '/products', { title: 'Secret Lamp' })).body.data.handle).toBe('secret-lamp');
    expect((await t.call(a, 'GET', `/products/${product.id}`)).body.data).toEqual(product);
  });

  it('enforces the products scopes for API keys', async () => {
    const store = await t.newStore();
    const readKey = (await t.call(store, 'POST', '/api-keys', { name: 'reader', scopes: ['products:read'] })).body.data.key;
    expect((await t.call(readKey, 'GET', '/products')).status).toBe(200);
    expectError(await t.call(readKey, 'POST', '/products', { title: 'x' }), 403, 'FORBIDDEN');
    const otherKey = (await t.call(store, 'POST', '/api-keys', { name: 'orders', scopes: ['orders:read'] })).body.data.key;
    expectError(await t.call(otherKey, 'GET', '/products'), 403, 'FORBIDDEN');
    expectError(await t.call(null, 'GET', '/products'), 401, 'UNAUTHORIZED');
  });
});
