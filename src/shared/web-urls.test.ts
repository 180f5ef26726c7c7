import { connect } from 'node:net';
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

describe('paths that cannot name a record answer in the envelope', () => {
  it('a path that is not valid percent-encoding is 404 NOT_FOUND (was FST_ERR_BAD_URL outside the envelope)', async () => {
    const res = await t.call(store, 'GET', '/products/%E0%A4%A');
    expectError(res, 404, 'NOT_FOUND');
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('an id longer than the router keeps is 404 NOT_FOUND (was 414 FST_ERR_MAX_PARAM_LENGTH)', async () => {
    expectError(await t.call(store, 'GET', `/products/${'a'.repeat(201)}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', `/customers/${'0'.repeat(5000)}`), 404, 'NOT_FOUND');
  });

  it('a request Node cannot parse is answered in the envelope too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n'));
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: [] } });
  });
});

describe('URLs the service stores', () => {
  const SMUGGLED = 'https://cdn.example.test/a.png\r\nSet-Cookie: session=stolen';

  it('an image URL holding CRLF is a 400 naming images[i] and is not stored (it was stored as is)', async () => {
    const res = await t.call(store, 'PATCH', `/products/${records.product}`, { images: ['https://cdn.example.test/ok.png', SMUGGLED] });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'images[1]', in: 'body', message: expect.stringContaining('whitespace or control') }]);
    expect((await t.call(store, 'GET', `/products/${records.product}`)).body.data.image).toEqual([]);
  });

  it('the same rule for sizeChart and for a collection image', async () => {
    const chart = await t.call(store, 'POST', '/products', { title: 'Chart', sizeChart: 'http://cdn.example.test/a b.pdf' });
    expect(expectError(chart, 400, 'VALIDATION_ERROR').details.map((d) => d.field)).toEqual(['sizeChart']);
    const collection = await t.call(store, 'PATCH', `/collections/${records.collection}`, { image: 'https://x.test/\u0085a.png' });
    expect(expectError(collection, 400, 'VALIDATION_ERROR').details.map((d) => d.field)).toEqual(['image']);
    const tab = await t.call(store, 'POST', '/collections', { title: 'Tab', image: 'https://x.test/\ta.png' });
    expect(expectError(tab, 400, 'VALIDATION_ERROR').details.map((d) => d.field)).toEqual(['image']);
  });

  it('refuses relative, hostless and non-http URLs', async () => {
    for (const image of ['https://', 'http:/x.test/a.png', 'javascript:alert(1)', '//x.test/a.png', 'https://exa mple.test/a.png']) {
      const res = await t.call(store, 'POST', '/collections', { title: 'Bad', image });
      expect(
        expectError(res, 400, 'VALIDATION_ERROR').details.map((d) => d.field),
        image,
      ).toEqual(['image']);
    }
  });

  it('keeps a proper absolute URL exactly as given', async () => {
    const image = 'https://cdn.example.test/p/t%C3%A9e.png?v=2#front';
    const res = await t.call(store, 'POST', '/collections', { title: 'Good', image });
    expect(res.status).toBe(201);
    expect(res.body.data.image).toBe(image);
  });
});
