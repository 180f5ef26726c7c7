import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { inlineDocument } from '../../test/support/openapi.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const ETAG = /^"[\w-]{27}"$/;

async function newProduct(store: TestStore, body: object = { title: 'Versioned' }) {
  const res = await t.call(store, 'POST', '/products', body);
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, etag: res.headers.etag as string, data: res.body.data };
}

const etagOfGet = async (store: TestStore, url: string) => (await t.call(store, 'GET', url)).headers.etag as string;

describe('ETags on record responses', () => {
  it('POST, GET and PATCH of a record carry the same strong ETag for the same representation', async () => {
    const store = await t.newStore();
    const product = await newProduct(store);
    expect(product.etag).toMatch(ETAG);
    expect(await etagOfGet(store, `/products/${product.id}`)).toBe(product.etag);
    expect(await etagOfGet(store, `/products/${product.id}`)).toBe(product.etag);

    const patched = await t.call(store, 'PATCH', `/products/${product.id}`, { title: 'Renamed' });
    expect(patched.headers.etag).toMatch(ETAG);
    expect(patched.headers.etag).not.toBe(product.etag);
    expect(await etagOfGet(store, `/products/${product.id}`)).toBe(patched.headers.etag);
  });

  it('a write elsewhere leaves the ETag alone; a variant update changes its product', async () => {
    const store = await t.newStore();
    const product = await newProduct(store, { title: 'Shirt', price: 10, options: [{ name: 'Size', values: ['S', 'M'] }] });
    await newProduct(store, { title: 'Unrelated' });
    expect(await etagOfGet(store, `/products/${product.id}`)).toBe(product.etag);

    const variant = product.data.variants[0];
    const updated = await t.call(store, 'PATCH', `/products/${product.id}/variants/${variant.id}`, { stock: 7 });
    expect(updated.status).toBe(200);
    expect(updated.headers.etag).toMatch(ETAG);
    expect(await etagOfGet(store, `/products/${product.id}`)).not.toBe(product.etag);
  });

  it('lists and delete results carry none', async () => {
    const store = await t.newStore();
    const product = await newProduct(store);
    expect((await t.call(store, 'GET', '/products')).headers.etag).toBeUndefined();
    expect((await t.call(store, 'GET', `/products/${product.id}/variants`)).headers.etag).toBeUndefined();
    expect((await t.call(store, 'DELETE', `/products/${product.id}`)).headers.etag).toBeUndefined();
  });

  it('every resource with one-record responses has them', async () => {
    const store = await t.newStore();
    const customer = await t.call(store, 'POST', '/customers', { userName: 'etag-user', password: '12345678' });
    const records = {
      [`/customers/${customer.body.data.id}`]: customer,
      addresses: await t.call(store, 'POST', `/customers/${customer.body.data.id}/addresses`, { city: 'Springfield' }),
      orders: await t.call(store, 'POST', '/orders', {
        cartItems: [{ productId: 'p', title: 'T', price: 1, quantity: 1 }],
        subTotal: 1,
        totalAmount: 1,
      }),
      collections: await t.call(store, 'POST', '/collections', { title: 'Summer' }),
      attributes: await t.call(store, 'POST', '/attributes', { name: 'Color' }),
      'attribute-sets': await t.call(store, 'POST', '/attribute-sets', { name: 'Apparel' }),
    };
    for (const [where, created] of Object.entries(records)) {
      expect(created.status, where).toBe(201);
      const url = where.startsWith('/') ? where : `/${where}/${created.body.data.id}`;
      expect(created.headers.etag, where).toMatch(ETAG);
      expect(await etagOfGet(store, url), where).toBe(created.headers.etag);
    }
  });
});

describe('If-None-Match', () => {
  it('naming the current ETag (also weak, in a list, or *) is 304 without a body; a stale one is 200', async () => {
    const store = await t.newStore();
    const product = await newProduct(store);
    const url = `/products/${product.id}`;
    for (const header of [product.etag, `W/${product.etag}`, `"other", ${product.etag}`, '*']) {
      const res = await t.call(store, 'GET', url, undefined, { 'if-none-match': header });
      expect(res.status, header).toBe(304);
      expect(res.body, header).toBeUndefined();
      expect(res.headers.etag).toBe(product.etag);
    }
    await t.call(store, 'PATCH', url, { title: 'New' });
    const fresh = await t.call(store, 'GET', url, undefined, { 'if-none-match': product.etag });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.title).toBe('New');
  });
});

describe('If-Match', () => {
  it('the current ETag or * proceeds; a stale or weak one is 412 with the current ETag and changes nothing', async () => {
    const store = await t.newStore();
    const product = await newProduct(store);
    const url = `/products/${product.id}`;
    const first = await t.call(store, 'PATCH', url, { title: 'Second' }, { 'if-match': product.etag });
    expect(first.status).toBe(200);

    for (const stale of [product.etag, `W/${first.headers.etag}`]) {
      const refused = await t.call(store, 'PATCH', url, { title: 'Lost update' }, { 'if-match': stale });
      expectError(refused, 412, 'PRECONDITION_FAILED');
      expect(refused.headers.etag).toBe(first.headers.etag);
    }
    expectError(await t.call(store, 'DELETE', url, undefined, { 'if-match': product.etag }), 412, 'PRECONDITION_FAILED');
    const current = await t.call(store, 'GET', url);
    expect(current.body.data.title).toBe('Second');
    expect(current.headers.etag).toBe(first.headers.etag);

    expect((await t.call(store, 'PATCH', url, { title: 'Third' }, { 'if-match': '*' })).status).toBe(200);
    const latest = await etagOfGet(store, url);
    expect((await t.call(store, 'DELETE', url, undefined, { 'if-match': `"x", ${latest}` })).status).toBe(200);
    expect((await t.call(store, 'GET', url)).status).toBe(404);
  });

  it('a variant PATCH checks the variant version', async () => {
    const store = await t.newStore();
    const product = await newProduct(store, { title: 'Mug', price: 5, options: [{ name: 'Color', values: ['Red'] }] });
    const url = `/products/${product.id}/variants/${product.data.variants[0].id}`;
    const first = await t.call(store, 'PATCH', url, { stock: 1 });
    const second = await t.call(store, 'PATCH', url, { stock: 2 }, { 'if-match': String(first.headers.etag) });
    expect(second.status).toBe(200);
    const refused = await t.call(store, 'PATCH', url, { stock: 3 }, { 'if-match': String(first.headers.etag) });
    expectError(refused, 412, 'PRECONDITION_FAILED');
    expect(refused.headers.etag).toBe(second.headers.etag);
    expect((await t.call(store, 'GET', `/products/${product.id}/variants`)).body.data[0].stock).toBe(2);
  });

  it('of concurrent PATCHes naming the same version exactly one succeeds', async () => {
    const store = await t.newStore();
    const product = await newProduct(store);
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.call(store, 'PATCH', `/products/${product.id}`, { title: `Writer ${i}` }, { 'if-match': product.etag }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = replies.find((r) => r.status === 200);
    expect((await t.call(store, 'GET', `/products/${product.id}`)).body.data.title).toBe(winner?.body.data.title);
  });
});

describe('ETags and idempotency keys together', () => {
  it('a replay carries the recorded ETag; a recorded 412 replays with the ETag it named', async () => {
    const store = await t.newStore();
    const first = await t.call(store, 'POST', '/products', { title: 'Keyed' }, { 'idempotency-key': 'create-keyed' });
    const replay = await t.call(store, 'POST', '/products', { title: 'Keyed' }, { 'idempotency-key': 'create-keyed' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers.etag).toBe(first.headers.etag);

    const url = `/products/${first.body.data.id}`;
    await t.call(store, 'PATCH', url, { title: 'Moved on' });
    const current = await etagOfGet(store, url);
    const headers = { 'if-match': String(first.headers.etag), 'idempotency-key': 'stale-patch' };
    const refused = await t.call(store, 'PATCH', url, { title: 'Stale' }, headers);
    expectError(refused, 412, 'PRECONDITION_FAILED');
    const again = await t.call(store, 'PATCH', url, { title: 'Stale' }, headers);
    expect(again.status).toBe(412);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe(current);
  });
});

describe('OpenAPI', () => {
  it('lists Idempotency-Key on writes and If-None-Match on record reads', async () => {
    const paths = inlineDocument((await t.call(null, 'GET', '/openapi.json')).body).paths;
    const headerNames = (operation: { parameters?: { in: string; name: string }[] }) =>
      (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerNames(paths['/api/v1/orders'].post)).toContain('idempotency-key');
    expect(headerNames(paths['/api/v1/products/{id}'].patch)).toContain('idempotency-key');
    expect(headerNames(paths['/api/v1/products/{id}'].get)).toContain('if-none-match');
    expect(headerNames(paths['/api/v1/products'].get)).not.toContain('if-none-match');
    expect(headerNames(paths['/api/v1/auth'].post)).not.toContain('idempotency-key');
  });

  it('lists If-Match, the response headers and the statuses of safe writes where they apply', async () => {
    const paths = inlineDocument((await t.call(null, 'GET', '/openapi.json')).body).paths;
    type Responses = Record<string, { description: string; headers?: Record<string, unknown> }>;
    const responses = (path: string, method: string): Responses => paths[`/api/v1${path}`][method].responses;
    const headerNames = (path: string, method: string) =>
      (paths[`/api/v1${path}`][method].parameters ?? [])
        .filter((p: { in: string }) => p.in === 'header')
        .map((p: { name: string }) => p.name);
    const create = responses('/orders', 'post');
    expect(Object.keys(create['201'].headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'Idempotent-Replayed']));
    expect(create['409'].description).toContain('INSUFFICIENT_STOCK');
    expect(create['409'].description).toContain('IDEMPOTENCY_KEY_IN_USE');
    expect(Object.keys(create['409'].headers ?? {})).toContain('Retry-After');
    expect(create['422'].description).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(create['412']).toBeUndefined();
    const read = responses('/orders/{id}', 'get');
    expect(Object.keys(read['200'].headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'X-Request-Id']));
    expect(read['200'].headers).not.toHaveProperty('Idempotent-Replayed');
    expect(read['304'].description).toContain('Not Modified');
    for (const [path, method] of [
      ['/orders/{id}', 'patch'],
      ['/orders/{id}', 'delete'],
      ['/customers/{id}', 'delete'],
      ['/addresses/{id}', 'patch'],
    ]) {
      expect(headerNames(path, method)).toEqual(expect.arrayContaining(['if-match', 'idempotency-key']));
      expect(Object.keys(responses(path, method)['412'].headers ?? {})).toContain('ETag');
    }
    expect(headerNames('/api-keys/{id}', 'delete')).not.toContain('if-match');
    expect(headerNames('/orders', 'get')).toEqual(['prefer', 'storefront-consistency']);
    expect(responses('/orders', 'get')['304']).toBeUndefined();
    expect(responses('/orders/{id}', 'delete')['200'].headers).not.toHaveProperty('ETag');
  });
});
