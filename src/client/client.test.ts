import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { createStorefrontClient, type StorefrontClientOptions, StorefrontError, unwrap } from './index.js';

// The generated client against a real server on 127.0.0.1 (both engines): typed CRUD, retries with one
// idempotency key, paging, error mapping.

let t: TestContext;
let baseUrl: string;
let store: TestStore;
beforeAll(async () => {
  t = await setupTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  store = await t.newStore();
}, 300_000);
afterAll(() => t?.close());

const clientFor = (options: Partial<StorefrontClientOptions> = {}) => createStorefrontClient({ baseUrl, token: store.token, ...options });

async function productsWithHandle(handle: string): Promise<number> {
  const rows = await t.database.db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', store.id)
    .where('handle', '=', handle)
    .execute();
  return rows.length;
}

describe('the typed client', () => {
  it('creates, reads, updates and deletes a product, typed at compile time', async () => {
    const client = clientFor();
    const created = unwrap(await client.POST('/products', { body: { title: 'Client tee', handle: 'client-tee' } }));
    expect(created).toMatchObject({ title: 'Client tee', handle: 'client-tee' });
    const id: string = created.id;
    // @ts-expect-error: `titel` is no field of a product (the body type comes from the OpenAPI document)
    await client.POST('/products', { body: { titel: 'typo' } }).catch(() => undefined);
    const read = unwrap(await client.GET('/products/{id}', { params: { path: { id } } }));
    expect(read.title).toBe('Client tee');
    const updated = unwrap(await client.PATCH('/products/{id}', { params: { path: { id } }, body: { title: 'Client tee 2' } }));
    expect(updated.title).toBe('Client tee 2');
    unwrap(await client.DELETE('/products/{id}', { params: { path: { id } } }));
    expect(await productsWithHandle('client-tee')).toBe(0);
  });

  it('retries a 429 after its Retry-After with the same Idempotency-Key, and the write happens once', async () => {
    const keys: string[] = [];
    let attempts = 0;
    // The first attempt reaches the server, but its answer is "lost" and the client sees a 429 instead.
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      keys.push(request.headers.get('idempotency-key') ?? '');
      const response = await fetch(request);
      if (++attempts > 1) return response;
      return new Response(JSON.stringify({ success: false, error: { code: 'RATE_LIMITED', message: 'Too many requests', details: [] } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
      });
    };
    const started = Date.now();
    const created = unwrap(await clientFor({ fetch: flaky }).POST('/products', { body: { title: 'Once', handle: 'once-only' } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(attempts).toBe(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(created.handle).toBe('once-only');
    expect(await productsWithHandle('once-only')).toBe(1);
  });

  it('retries a keyed write after a network error, and it happens once', async () => {
    let attempts = 0;
    const dropping: typeof fetch = async (input, init) => {
      const response = await fetch(new Request(input, init));
      if (++attempts === 1) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const client = clientFor({ fetch: dropping, baseDelayMs: 10 });
    const created = unwrap(await client.POST('/products', { body: { title: 'Dropped', handle: 'dropped-once' } }));
    expect(attempts).toBe(2);
    expect(created.handle).toBe('dropped-once');
    expect(await productsWithHandle('dropped-once')).toBe(1);
  });

  it('walks every page with paginate and items', async () => {
    const own = await t.newStore();
    const client = clientFor({ token: own.token });
    for (let n = 0; n < 5; n++) unwrap(await client.POST('/products', { body: { title: `Paged ${n}` } }));
    const pages = [];
    for await (const page of client.paginate('/products', { query: { limit: 2, sort: 'title' } }))
      pages.push(page.items.map((p) => p.title));
    expect(pages).toEqual([['Paged 0', 'Paged 1'], ['Paged 2', 'Paged 3'], ['Paged 4']]);
    const titles: string[] = [];
    for await (const product of client.items('/products', { query: { limit: 2, sort: '-title' } })) titles.push(product.title);
    expect(titles).toEqual(['Paged 4', 'Paged 3', 'Paged 2', 'Paged 1', 'Paged 0']);
  });

  it('maps error envelopes to StorefrontError with status, code, details and request id', async () => {
    const client = clientFor();
    const missing = await client.GET('/products/{id}', { params: { path: { id: '0'.repeat(24) } } });
    const notFound = (() => {
      try {
        unwrap(missing);
      } catch (error) {
        return error;
      }
    })() as StorefrontError;
    expect(notFound).toBeInstanceOf(StorefrontError);
    expect(notFound).toMatchObject({ status: 404, code: 'NOT_FOUND', details: [] });
    expect(notFound.requestId).toBeTruthy();
    const invalid = await client.POST('/products', { body: { title: '' } });
    expect(() => unwrap(invalid)).toThrow(StorefrontError);
    expect(StorefrontError.from(invalid.response, invalid.error)).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ field: 'title', in: 'body' })],
    });
    const anonymous = createStorefrontClient({ baseUrl });
    expect(() => unwrap(anonymous.GET('/products', {}) as never)).toThrow();
    const refused = await anonymous.GET('/products', {});
    expect(StorefrontError.from(refused.response, refused.error)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Missing bearer credential',
    });
  });

  it('gives a raw fetch with auth and an idempotency key, for streams and paths the types do not cover', async () => {
    const client = clientFor();
    const response = await client.fetch(`${baseUrl}/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Raw', handle: 'raw-fetch' }),
    });
    expect(response.status).toBe(201);
    expect(await productsWithHandle('raw-fetch')).toBe(1);
  });
});
