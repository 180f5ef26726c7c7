import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { apiKey, newCollection, newProduct } from '../../test/support/collections.fixtures.js';
import { dataUri, PNG, PNG_URI } from '../../test/support/media.fixtures.js';
import { inlineDocument } from '../../test/support/openapi.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const FIELDS = [
  'childCollection',
  'collectionType',
  'conditions',
  'createdAt',
  'customFields',
  'description',
  'handle',
  'id',
  'image',
  'matchType',
  'metaDescription',
  'metaKeywords',
  'metaTitle',
  'parentCollection',
  'selectedProducts',
  'title',
  'updatedAt',
];

describe('collections: create and read', () => {
  it('creates a manual collection with defaults and every field present', async () => {
    const store = await t.newStore();
    const res = await t.call(store, 'POST', '/collections', { title: '  Summer Sale ', ignored: 1 }, { prefer: 'handling=lenient' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({
      title: 'Summer Sale',
      handle: 'summer-sale',
      description: null,
      image: null,
      collectionType: 'manual',
      selectedProducts: [],
      parentCollection: null,
      childCollection: [],
      matchType: null,
      conditions: [],
      metaTitle: null,
      metaDescription: null,
      metaKeywords: null,
    });
    expect(res.body.data.id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.data.updatedAt).toBe(res.body.data.createdAt);
    expect((await t.call(store, 'GET', `/collections/${res.body.data.id}`)).body).toEqual(res.body);
  });

  it('stores every supplied field', async () => {
    const store = await t.newStore();
    const body = {
      title: 'Shoes',
      handle: 'All Shoes',
      description: '<p>Every shoe</p>',
      image: 'https://cdn.example.com/shoes.png',
      metaTitle: 'Shoes | Shop',
      metaDescription: 'Buy shoes',
      metaKeywords: 'shoes, boots',
    };
    const data = await newCollection(t, store, body);
    expect(data).toMatchObject({ ...body, handle: 'all-shoes' });
  });

  it('stores a data-URI image as a media URL, like product images', async () => {
    const store = await t.newStore();
    const data = await newCollection(t, store, { title: 'Pics', image: PNG_URI });
    expect(data.image).toMatch(/^http:\/\/storefront\.test\/media\/[0-9a-f]{64}\.png$/);
    const served = await t.call(null, 'GET', new URL(data.image).pathname);
    expect(served.status).toBe(200);
    const bad = expectError(await t.call(store, 'POST', '/collections', { title: 'x', image: 'ftp://x/y.png' }), 400, 'VALIDATION_ERROR');
    expect(bad.details.map((d) => d.field)).toEqual(['image']);
    expectError(await t.call(store, 'POST', '/collections', { title: 'x', image: 'data:image/png;base64,AAAA' }), 400, 'VALIDATION_ERROR');
  });

  it('writes an image file only once the whole write has succeeded (a taken handle writes none)', async () => {
    const store = await t.newStore();
    await newCollection(t, store, { title: 'Taken', handle: 'taken' });
    const other = await newCollection(t, store, { title: 'Other' });
    // Bytes no other test uploads: the file can only come from this test's requests.
    const bytes = Buffer.concat([PNG, randomBytes(16)]);
    const key = `${createHash('sha256').update(bytes).digest('hex')}.png`;
    // Asked of the media route, not the disk: on PostgreSQL media live in the database.
    const stored = async () => (await t.call(null, 'GET', `/media/${key}`)).status === 200;
    const image = dataUri('image/png', bytes);
    expectError(await t.call(store, 'POST', '/collections', { title: 'Again', handle: 'taken', image }), 400, 'DUPLICATE_VALUE');
    expectError(await t.call(store, 'PATCH', `/collections/${other.id}`, { handle: 'taken', image }), 400, 'DUPLICATE_VALUE');
    expect(await stored()).toBe(false);
    expect((await t.call(store, 'PATCH', `/collections/${other.id}`, { image })).status).toBe(200);
    expect(await stored()).toBe(true);
  });

  it('rejects wrong types with one detail per field and stores nothing', async () => {
    const store = await t.newStore();
    const error = expectError(
      await t.call(store, 'POST', '/collections', {
        title: 5,
        collectionType: 'auto',
        selectedProducts: 'x',
        matchType: 'some condition',
        metaTitle: 3,
        conditions: [{ field: 'color', operator: 'is', value: 4 }],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details.map((d) => d.field).sort()).toEqual(
      [
        'collectionType',
        'conditions[0].field',
        'conditions[0].operator',
        'conditions[0].value',
        'matchType',
        'metaTitle',
        'selectedProducts',
        'title',
      ].sort(),
    );
    expectError(await t.call(store, 'POST', '/collections', {}), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'POST', '/collections', { title: '   ' }), 400, 'VALIDATION_ERROR');
    expect((await t.call(store, 'GET', '/collections')).body.pagination.total).toBe(0);
  });
});

describe('collections: handles', () => {
  it('generates unique handles from titles', async () => {
    const store = await t.newStore();
    const handles = [];
    for (const title of ['Summer Sale', 'summer sale!', 'SUMMER  SALE', 'iPhone Cases', '☀️']) {
      handles.push((await newCollection(t, store, { title })).handle);
    }
    expect(handles).toEqual(['summer-sale', 'summer-sale-2', 'summer-sale-3', 'iphone-cases', 'collection']);
    const other = await t.newStore();
    expect((await newCollection(t, other, { title: 'Summer Sale' })).handle).toBe('summer-sale');
  });

  it('slugifies a supplied handle, refuses an empty one and a taken one', async () => {
    const store = await t.newStore();
    expect((await newCollection(t, store, { title: 'A', handle: ' Über Deals ' })).handle).toBe('ueber-deals');
    const empty = expectError(await t.call(store, 'POST', '/collections', { title: 'B', handle: '!!!' }), 400, 'VALIDATION_ERROR');
    expect(empty.details[0].field).toBe('handle');
    const taken = expectError(await t.call(store, 'POST', '/collections', { title: 'C', handle: 'UEBER deals' }), 400, 'DUPLICATE_VALUE');
    expect(taken.details[0].field).toBe('handle');
    const second = await newCollection(t, store, { title: 'D' });
    expectError(await t.call(store, 'PATCH', `/collections/${second.id}`, { handle: 'ueber-deals' }), 400, 'DUPLICATE_VALUE');
    expectError(await t.call(store, 'PATCH', `/collections/${second.id}`, { handle: '' }), 400, 'VALIDATION_ERROR');
    const renamed = await t.call(store, 'PATCH', `/collections/${second.id}`, { handle: 'D Two', title: 'Renamed' });
    expect(renamed.body.data).toMatchObject({ handle: 'd-two', title: 'Renamed' });
    expect((await t.call(store, 'PATCH', `/collections/${second.id}`, { handle: 'd-two' })).status).toBe(200);
  });

  it('keeps the handle when only the title changes', async () => {
    const store = await t.newStore();
    const created = await newCollection(t, store, { title: 'Winter' });
    const patched = await t.call(store, 'PATCH', `/collections/${created.id}`, { title: 'Cold Winter' });
    expect(patched.body.data.handle).toBe('winter');
  });
});

describe('collections: update and delete', () => {
  it('updates fields, clears nullable ones, and takes a fetched record back', async () => {
    const store = await t.newStore();
    const created = await newCollection(t, store, { title: 'Hats', description: 'Warm', metaTitle: 'Hats' });
    const patched = await t.call(store, 'PATCH', `/collections/${created.id}`, { description: null, metaKeywords: 'wool' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ title: 'Hats', description: null, metaTitle: 'Hats', metaKeywords: 'wool' });
    expect(Date.parse(patched.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect(patched.body.data.createdAt).toBe(created.createdAt);
    const roundTrip = await t.call(store, 'PATCH', `/collections/${created.id}`, patched.body.data);
    expect(roundTrip.status).toBe(200);
    expect({ ...roundTrip.body.data, updatedAt: null }).toEqual({ ...patched.body.data, updatedAt: null });
    expectError(await t.call(store, 'PATCH', `/collections/${created.id}`, { title: null }), 400, 'VALIDATION_ERROR');
  });

  it('deletes, then answers 404 everywhere', async () => {
    const store = await t.newStore();
    const { id } = await newCollection(t, store, { title: 'Temp' });
    expect((await t.call(store, 'DELETE', `/collections/${id}`)).body).toEqual({ success: true, data: { id } });
    for (const [method, url] of [
      ['GET', `/collections/${id}`],
      ['PATCH', `/collections/${id}`],
      ['DELETE', `/collections/${id}`],
      ['GET', `/collections/${id}/products`],
      ['GET', '/collections/not-an-id'],
      ['GET', '/collections/not-an-id/products'],
    ]) {
      expectError(await t.call(store, method, url, method === 'PATCH' ? { title: 'x' } : undefined), 404, 'NOT_FOUND');
    }
  });
});

describe('collections: documentation', () => {
  it('documents every operation in the OpenAPI document', async () => {
    const paths = inlineDocument((await t.call(null, 'GET', '/openapi.json')).body).paths;
    expect(Object.keys(paths['/api/v1/collections']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v1/collections/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(paths['/api/v1/collections/{id}/products'])).toEqual(['get']);
  });
});

describe('collections: tenancy and scopes', () => {
  it('seals stores off from each other', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const product = await newProduct(t, a, { title: 'Secret product' });
    const secret = await newCollection(t, a, { title: 'Secret', selectedProducts: [product.id] });
    for (const [method, url] of [
      ['GET', `/collections/${secret.id}`],
      ['PATCH', `/collections/${secret.id}`],
      ['DELETE', `/collections/${secret.id}`],
      ['GET', `/collections/${secret.id}/products`],
    ]) {
      expectError(await t.call(b, method, url, method === 'PATCH' ? { title: 'mine' } : undefined), 404, 'NOT_FOUND');
    }
    expect((await t.call(b, 'GET', '/collections?search=Secret')).body.data).toEqual([]);
    expect((await t.call(b, 'GET', '/collections')).body.pagination.total).toBe(0);
    const refs = expectError(
      await t.call(b, 'POST', '/collections', { title: 'B', parentCollection: secret.id, selectedProducts: [product.id] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(refs.details.map((d) => d.field).sort()).toEqual(['parentCollection', 'selectedProducts[0]']);
    const bProduct = await newProduct(t, b, { title: 'B product' });
    const linked = await t.call(b, 'PATCH', `/products/${bProduct.id}`, { selectedCollections: [secret.id] });
    expect(expectError(linked, 400, 'VALIDATION_ERROR').details[0].field).toBe('selectedCollections[0]');
    expect((await t.call(a, 'GET', `/collections/${secret.id}`)).body.data.selectedProducts).toEqual([product.id]);
  });

  it('needs collections scopes from an API key, and products:read for member products', async () => {
    const store = await t.newStore();
    const { id } = await newCollection(t, store, { title: 'Scoped' });
    const reader = await apiKey(t, store, ['collections:read']);
    expect((await t.call(reader, 'GET', '/collections')).status).toBe(200);
    expect((await t.call(reader, 'GET', `/collections/${id}`)).status).toBe(200);
    expectError(await t.call(reader, 'POST', '/collections', { title: 'x' }), 403, 'FORBIDDEN');
    expectError(await t.call(reader, 'DELETE', `/collections/${id}`), 403, 'FORBIDDEN');
    expectError(await t.call(reader, 'GET', `/collections/${id}/products`), 403, 'FORBIDDEN');
    const both = await apiKey(t, store, ['collections:read', 'products:read']);
    expect((await t.call(both, 'GET', `/collections/${id}/products`)).status).toBe(200);
    const writer = await apiKey(t, store, ['collections:write']);
    expect((await t.call(writer, 'PATCH', `/collections/${id}`, { title: 'y' })).status).toBe(200);
    expectError(await t.call(writer, 'GET', '/collections'), 403, 'FORBIDDEN');
    expectError(await t.call(null, 'GET', '/collections'), 401, 'UNAUTHORIZED');
  });
});
